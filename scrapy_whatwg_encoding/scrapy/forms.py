"""The old path of :mod:`scrapy_whatwg_encoding.scrapy.requests.forms`, kept so that spiders
importing it still work."""
from .requests.forms import form_request

__all__ = ["form_request"]
