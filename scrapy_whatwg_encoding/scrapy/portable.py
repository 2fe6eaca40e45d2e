"""The old path of :mod:`scrapy_whatwg_encoding.scrapy.requests.portable`, kept so that
``SPIDER_MIDDLEWARES`` naming it still work."""
from .requests.portable import ORDER, PORTABLE_ENCODING, PortableRequestsMiddleware, portable_request

__all__ = ["ORDER", "PORTABLE_ENCODING", "PortableRequestsMiddleware", "portable_request"]
