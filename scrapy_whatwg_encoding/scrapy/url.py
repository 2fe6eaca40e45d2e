"""The old path of :mod:`scrapy_whatwg_encoding.scrapy.requests.url`, kept so that code importing
it still works."""
from .requests.url import encode_query, query_codec_name

__all__ = ["encode_query", "query_codec_name"]
