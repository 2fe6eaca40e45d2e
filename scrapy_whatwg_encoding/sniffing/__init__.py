"""Layer 2: the HTML standard's encoding sniffing algorithm (HTML §13.2.3), no Scrapy import.

Public: :func:`sniff` → :class:`Decision`, :func:`prescan`, :class:`Container`.
A module per algorithm: ``content_type`` (MIME Sniffing), ``prescan``, ``meta_charset``,
``xml_encoding``, ``change`` (+ ``parser``), ``container``, ``locale``, ``detect``, ``sniff``.
"""
from .change import PARSER_LIMIT
from .container import Container
from .decision import Decision
from .prescan import prescan
from .sniff import sniff, sniff_steps

__all__ = ["PARSER_LIMIT", "Container", "Decision", "prescan", "sniff", "sniff_steps"]
