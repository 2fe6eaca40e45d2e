"""The old path of :mod:`scrapy_whatwg_encoding.scrapy.requests.links`, kept so that spiders and
``DOWNLOADER_MIDDLEWARES`` naming it still work."""
from .requests.links import LinkExtractor, MetaRefreshMiddleware, follow, follow_all, query_reader, urljoin

__all__ = ["LinkExtractor", "MetaRefreshMiddleware", "follow", "follow_all", "query_reader", "urljoin"]
