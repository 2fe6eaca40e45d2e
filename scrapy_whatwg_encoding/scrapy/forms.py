"""The old path of :mod:`scrapy_whatwg_encoding.scrapy.requests.forms`, kept so that spiders
importing it still work."""
from .requests.forms import find_form, find_submitter, form_encoding, form_request

__all__ = ["find_form", "find_submitter", "form_encoding", "form_request"]
