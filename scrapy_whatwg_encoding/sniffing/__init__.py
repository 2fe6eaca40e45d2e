"""Layer 2: the HTML standard's encoding sniffing algorithm (HTML §13.2.3), no Scrapy import.

Public: :func:`sniff` → :class:`Decision`, :func:`sniff_steps`, :func:`prescan`, :class:`Container`;
the one run (:func:`.run.run` → :class:`.run.Trace`, its steps :class:`.steps.Step`).
A module per algorithm: ``content_type`` (Fetch's MIME types), ``mime_sniff``, ``prescan``,
``meta_charset``, ``xml_encoding``, ``change`` (+ ``parser_scan``), ``container``, ``locale``,
``detect``, ``browsers``; ``steps``, ``run``, ``browsers_profile`` and ``sniff`` compose them
(docs/design.rst).
"""
from .change import PARSER_LIMIT
from .container import Container
from .decision import Decision
from .prescan import prescan
from .sniff import sniff, sniff_steps

__all__ = ["PARSER_LIMIT", "Container", "Decision", "prescan", "sniff", "sniff_steps"]
