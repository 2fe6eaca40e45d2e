"""The encoding sniffing algorithm (HTML §13.2.3.2) with its parser step (§13.2.3.4), per kind of
document (HTML, XML after XML 1.0 Appendix F, plain text, other), in either profile: the public
entry points over :func:`.run.run` (docs/design.rst, "One run")."""
from __future__ import annotations

from ..encoding import Encoding
from .body import Body
from .browsers_profile import browsers_decision
from .change import PARSER_LIMIT
from .decision import Decision, DetectorMode, Profile
from .prescan import PRESCAN_BYTES
from .run import Likely, Settings, Trace, run
from .steps import STEPS

__all__ = ["STEPS", "decide_encoding", "sniff", "sniff_steps"]


def sniff(body: bytes | Body, *, content_type: str | bytes | None = None, url: str | None = None,
          locale: str | None = None, default: str | Encoding | None = None,
          override: str | Encoding | None = None, parent=None, likely: str | Encoding | Likely | None = None,
          detector: DetectorMode | None = None, prescan_bytes: int = PRESCAN_BYTES, parser_limit: int = PARSER_LIMIT,
          profile: Profile = "standard") -> Decision:
    r"""Determine the character encoding of *body* as a browser would, with the whole body at
    hand: the HTML standard's encoding sniffing algorithm (HTML §13.2.3.2,
    https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm) followed by
    its "change the encoding" parser step (§13.2.3.4), or XML 1.0 Appendix F for XML.

    Steps, in order (the first that finds an encoding decides): BOM sniff, *override*, the
    transport layer (*content_type*'s charset), the ``<meta>`` prescan of the first
    *prescan_bytes* bytes (or, for XML, the XML declaration), *parent*, *likely*, the
    *detector*, then the default (*default*, else *locale*'s). A tentative HTML decision is then
    checked against the first ``<meta>`` the tokenizer finds (source ``"parser"`` where it changes the
    encoding, or declares the one a step without a declaration gave).

    Callers porting from jsdom's ``html-encoding-sniffer`` or fb55's ``encoding-sniffer``, whose
    ``defaultEncoding`` decides every page without a BOM, a charset or a declaration, trip on two
    differences. The detector (step 8) comes before the default (step 9): with the default
    *detector* an unlabeled non-ASCII page gets the detected encoding (source ``"detector"``), and
    *default* (or *locale*) decides only where the detector finds nothing, e.g. ASCII; pass
    ``detector="off"`` for their behaviour. And *default*, *locale*, *parent*, *likely* and
    *detector* do not apply to XML (nor to other non-text types): an XML document without a BOM,
    a charset or an encoding declaration is UTF-8 (XML 1.0 Appendix F); *override* applies to
    every kind.

    :param body: the whole response body (:class:`bytes` or another bytes-like object, or a
        :class:`~.body.Body` whose facts the caller shares), already decompressed.
    :param content_type: the Content-Type header value (:class:`str`, or :class:`bytes` read as
        ISO-8859-1), or ``None``. Its MIME type chooses the kind of document — HTML for
        ``text/html``, a missing or unparsable type; XML for ``*/xml`` and ``*+xml``; plain text
        for ``text/plain`` (no prescan); anything else gets only BOM, override, transport and
        UTF-8 — and its first ``charset`` parameter is the transport layer encoding.
    :param url: the document's URL (:class:`str`): its top-level domain hints the detector, its
        origin is compared with *parent*'s.
    :param locale: a BCP 47 language tag (``"ja"``, ``"zh-TW"``) choosing the default encoding
        from the standard's table; ``None`` (or an unknown tag) is the "all other locales" row,
        windows-1252.
    :param default: the user default (step 9), a label or an :class:`Encoding`; wins over
        *locale*. It comes after the detector (step 8) and does not apply to XML (see above).
    :param override: the user override (step 2), a label or an :class:`Encoding`.
    :param parent: the container document of a frame (step 6): a :class:`Container` or an
        ``(encoding or label, origin URL)`` pair; used only when its origin is *url*'s.
    :param likely: a likely encoding (step 7), a label or an :class:`Encoding`, or a
        :data:`Likely` callable (a site's memory).
    :param detector: autodetection (step 8): ``"off"`` (none), ``"browser"`` (what Firefox
        shows: chardetng, never UTF-8) or ``"full"`` (valid UTF-8 first, then chardetng);
        ``None`` (default) is ``"full"`` in the standard profile and ``"browser"`` in the
        browsers profile.
    :param prescan_bytes: how many bytes (not characters) of *body* the ``<meta>`` prescan
        examines; 1024 as the standard suggests.
    :param parser_limit: how many characters of decoded text the parser step searches for a
        ``<meta>`` (default :data:`PARSER_LIMIT`, 65,536); 0 turns the step off. Past the first
        1,024 characters it looks only while the page is still in its head, where browsers stop.
    :param profile: ``"standard"`` (default): the standard's algorithm as above; ``"browsers"``:
        where Firefox and Chromium agree, their answer; where they disagree, the standard's answer
        if one of them gives it, else Chromium's (every difference: docs/browsers.rst). Their
        ``<meta>`` scans replace the prescan and the parser step, 7-bit ISO-2022-JP is never
        detected, and ``text/css`` is read as plain text.
    :returns: the :class:`Decision`.
    :raises ValueError: for a *detector* that is not one of the three modes, an unknown
        *profile*, or detector ``"full"`` with profile ``"browsers"`` (browsers never detect
        UTF-8). Nothing else raises: a label that "get an encoding" fails on is ignored (that
        step finds nothing).

    The work is bounded whatever the body's size (by *prescan_bytes*, *parser_limit* and the
    detector's 1 MiB limit).

    >>> from scrapy_whatwg_encoding import sniff
    >>> sniff(b'<meta charset="shift_jis">').encoding.name
    'Shift_JIS'
    >>> sniff(b"\xff\xfeh\x00i\x00", content_type="text/html; charset=koi8-r").source
    'bom'
    >>> sniff(b"<p>plain ASCII</p>", locale="ja")
    Decision(encoding=<Encoding Shift_JIS>, confidence='tentative', source='default', label=None, offset=None)
    >>> sniff(b'<?xml version="1.0" encoding="ISO-8859-2"?><a/>', content_type="application/xml").as_dict()
    {'encoding': 'ISO-8859-2', 'confidence': 'certain', 'source': 'xml-declaration', 'label': 'ISO-8859-2', 'offset': 0}
    >>> cyrillic = "<p>Привет, мир! Как дела?</p>".encode("windows-1251") * 4  # no label at all
    >>> [sniff(cyrillic, default="koi8-r", detector=d).encoding.name for d in ("full", "off")]
    ['windows-1251', 'KOI8-R']
    >>> sniff(cyrillic, content_type="application/xml", default="koi8-r").encoding.name  # not for XML
    'UTF-8'
    >>> page = b'<title><meta charset="koi8-r"></title>'  # a <meta> in a title: text, for a browser
    >>> sniff(page).encoding.name, sniff(page, profile="browsers").encoding.name
    ('KOI8-R', 'windows-1252')
    """
    settings = Settings(locale, default, prescan_bytes, profile, detector, parser_limit=parser_limit)
    return decide_encoding(body if isinstance(body, Body) else Body(body), content_type, url, settings, override,
                           parent, likely)


def decide_encoding(body: Body, content_type, url, settings: Settings, override=None, parent=None,
                    likely=None, *, shortcuts: bool = True) -> Decision:
    """The decision for *body* (:func:`sniff`'s arguments, *settings* those that are the same for
    every body) in *settings*' profile: the standard's run, then in the browsers profile what
    Firefox's and Chromium's models of the same run give (:mod:`.browsers_profile`).
    *shortcuts* ``False`` runs every step's plain twin (for the oracles)."""
    trace = run(body, content_type, url, settings, override, parent, likely, shortcuts=shortcuts)
    if settings.profile == "standard":
        return trace.decision  # type: ignore[return-value]  # the standard's run always decides
    return browsers_decision(body, content_type, url, settings, override, parent, likely, trace, shortcuts)


def sniff_steps(body: bytes, *, parser_limit: int = PARSER_LIMIT, profile: Profile = "standard", **options) -> dict:
    """Every step's finding, for explaining a decision (same arguments as
    :func:`~scrapy_whatwg_encoding.sniff`).

    Returns ``{"kind": "html" | "xml" | "text" | "other", "steps": [(Step, Decision or None),
    ...] for every step of the kind (all asked, even after the one that decided), "chosen": the
    first step's Decision, "parser": (Encoding, label, byte offset) or None, "decision": the
    final Decision (equal to ``sniff(body, **options)``), "profile": *profile*, "standard": the
    standard profile's Decision, "trace": the standard run's :class:`~.run.Trace`}``: the steps
    are the standard's; in the browsers profile "decision" may differ from "standard". Raises
    ``TypeError`` for an unknown keyword, ``ValueError`` as ``sniff()`` does."""
    names = ("content_type", "url", "locale", "default", "override", "parent", "likely", "detector",
             "prescan_bytes")
    unknown = set(options) - set(names)
    if unknown:
        raise TypeError(f"unexpected keyword arguments {sorted(unknown)}")
    settings = Settings(options.get("locale"), options.get("default"), options.get("prescan_bytes", PRESCAN_BYTES),
                        profile, options.get("detector"), parser_limit=parser_limit)
    facts = Body(body)
    content_type, url = options.get("content_type"), options.get("url")
    override, parent, likely = options.get("override"), options.get("parent"), options.get("likely")
    trace: Trace = run(facts, content_type, url, settings, override, parent, likely, every_step=True)
    standard: Decision = trace.decision  # type: ignore[assignment]
    decision = standard
    if profile != "standard":
        decision = browsers_decision(facts, content_type, url, settings, override, parent, likely, trace)
    return {"kind": trace.kind, "steps": trace.steps, "chosen": trace.chosen, "parser": trace.parser,
            "decision": decision, "profile": profile, "standard": standard, "trace": trace}
