"""Layer 1: the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/). No Scrapy import."""
from .encoding import ENCODINGS, Encoding
from .hooks import bom_sniff, decode
from .labels import get_encoding

__all__ = ["ENCODINGS", "Encoding", "bom_sniff", "decode", "get_encoding"]
