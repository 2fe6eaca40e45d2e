"""The encoding sniffing algorithm (HTML §13.2.3.2, current version — see SPEC-NOTES), with the
parser step (§13.2.3.4), per kind of document: HTML, XML (XML 1.0 Appendix F), plain text, other."""
from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..encoding import ENCODINGS, Encoding, get_encoding
from .body import Body
from .change import PARSER_LIMIT, _plain_meta, change_the_encoding, first_parser_meta_bytes, parser_meta
from .container import container_encoding
from .content_type import content_type_facts, parse_mime_type, per_value
from .decision import DEFAULT_DETECTORS, DETECTOR_MODES, PROFILES, Decision, DetectorMode, Profile
from .detect import detect
from .locale import locale_encoding
from .prescan import PRESCAN_BYTES, prescan_result
from .xml_encoding import xml_declared_encoding

if TYPE_CHECKING:
    from .decide import Options

logger = logging.getLogger(__name__)

#: A likely encoding computed from the body (step 7), such as a site's memory: called with the
#: :class:`~.body.Body` and what steps 8-9 give (a tentative :class:`Decision`), only when steps
#: 1-6 found nothing; returns a label, an :class:`Encoding` or ``None``.
Likely = Callable[[Body, Decision], "str | Encoding | None"]
_UTF_8 = ENCODINGS["UTF-8"]

# The steps each kind of document goes through, in order.
STEPS: dict[str, tuple[str, ...]] = {
    "html": ("bom", "override", "transport", "prescan", "container", "likely", "detector", "default"),
    "text": ("bom", "override", "transport", "container", "likely", "detector", "default"),
    "xml": ("bom", "override", "transport", "xml-declaration", "default"),
    "other": ("bom", "override", "transport", "default"),
}


def _label(value) -> tuple[Encoding, str | None] | None:
    """An :class:`Encoding` as is, or a label through "get an encoding" (``None`` on failure)."""
    if value is None:
        return None
    if isinstance(value, Encoding):
        return value, None
    return _get_label(str(value))


@per_value  # the same few labels come back on every page of a crawl
def _get_label(label: str) -> tuple[Encoding, str] | None:
    encoding = get_encoding(label)
    return None if encoding is None else (encoding, label.strip("\t\n\x0c\r "))


@functools.lru_cache(maxsize=8)
def _bom_decision(encoding: Encoding) -> Decision:  # step 1: BOM sniff → certain
    return Decision(encoding, "certain", "bom", None, 0)


def _override_decision(override: str | Encoding) -> Decision | None:  # step 2: user override → certain
    found = _label(override)
    return None if found is None else Decision(found[0], "certain", "override", found[1])


@per_value  # a crawl sees the same few Content-Type values
def transport_decision(content_type: str | bytes) -> tuple[Decision | None, str | None]:
    """Step 4 for *content_type*: ``(decision, None)`` when its charset is a label (frozen: one
    object serves every page), else ``(None, why)``: why a charset it has was not taken, or
    ``None`` when it has none."""
    label = content_type_facts(content_type)[2]
    found = _label(label)
    if found is not None:
        return Decision(found[0], "certain", "transport", found[1]), None
    return None, _why_ignored(content_type, label)


def _transport_step(content_type: str | bytes) -> Decision | None:
    """Step 4: the transport layer's charset, when "get an encoding" succeeds, else ``None``
    (logged at DEBUG when a charset is ignored)."""
    decision, ignored = transport_decision(content_type)
    if ignored is not None and logger.isEnabledFor(logging.DEBUG):
        logger.debug("%s", ignored)
    return decision


def _why_ignored(content_type, label: str | None) -> str | None:
    """Why a Content-Type gave no transport layer encoding (step 4), or ``None`` when it has no
    charset to give."""
    text = content_type.decode("latin-1") if isinstance(content_type, (bytes, bytearray)) else str(content_type)
    if label is None and "charset" not in text.lower():
        return None  # no charset at all: nothing was ignored
    parsed = parse_mime_type(text)
    if label is not None:
        why = f"its charset {_shorten(label)!r} is not a label of the Encoding Standard"
    elif parsed is None:
        why = "it does not parse as a MIME type"
    elif parsed[0] == "*/*":
        why = "*/* is no MIME type (Fetch's extract a MIME type skips it)"
    else:
        why = "its charset parameter is empty or malformed"
    return f"Content-Type {_shorten(text)!r} ignored for the encoding: {why}"


def _shorten(text: str, keep: int = 100) -> str:
    return text if len(text) <= keep else f"{text[:keep]}...({len(text)} characters)"


_NOT_ASKED = object()  # a step of a _Run not asked yet


class _Run:
    """One run of the algorithm over a body: each step is a method returning a Decision or None.
    *options* (a :class:`~.decide.Options`) holds what is the same for every body of a crawl."""

    __slots__ = (
        "body",
        "content_type",
        "essence",
        "facts",
        "fallback_",
        "kind",
        "likely_",
        "likely_found",
        "meta_at",
        "metas",
        "no_plain_meta",
        "options",
        "override_",
        "parent",
        "url",
    )

    def __init__(self, facts: Body, content_type, url, options: Options, override=None, parent=None, likely=None):
        self.facts = facts
        self.body = facts.data
        self.fallback_: Decision | None = None  # what steps 8-9 give, once asked
        self.meta_at: int | None = None  # the first "<meta" with a hint after it, for the parser step
        self.metas: list = []  # the <meta tags the prescan read, for the parser step
        self.no_plain_meta = False  # no <meta> for the parser step in the whole body as UTF-8 or single-byte
        self.essence, self.kind, _ = content_type_facts(content_type)
        self.content_type = content_type
        self.url = url
        self.options = options
        self.override_ = override
        self.parent = parent
        self.likely_ = likely
        self.likely_found: Decision | None | object = _NOT_ASKED  # what step 7 gives, once asked

    # Steps 1, 2 and 4 (certain); run_sniffing asks them before it makes a _Run.
    def bom(self):
        return None if self.facts.bom is None else _bom_decision(self.facts.bom)

    def override(self):
        return None if self.override_ is None else _override_decision(self.override_)

    def transport(self):
        return None if self.content_type is None else _transport_step(self.content_type)

    def prescan(self):  # step 5 → tentative
        found = prescan_result(self.body, self.options.prescan_bytes, self.metas)
        if found is None:
            return None
        encoding, label, offset, source = found
        return Decision(encoding, "tentative", source, label, offset)

    def xml_declaration(self):  # XML 1.0 Appendix F: the declaration's encoding is final
        found = xml_declared_encoding(self.body)  # to the declaration's ">", wherever it lies
        if found is None:
            return None
        return Decision(found[0], "certain", "xml-declaration", found[1], 0)

    def container(self):  # step 6 → tentative
        found = container_encoding(self.parent, self.url)
        return None if found is None else Decision(found[0], "tentative", "container", found[1])

    def likely(self):  # step 7 → tentative; asked once (a site's memory counts what it applies)
        if self.likely_found is _NOT_ASKED:
            value = self.likely_
            if callable(value):  # site memory: it weighs the body against what steps 8-9 give
                value = value(self.facts, self.fallback())
            found = _label(value)
            self.likely_found = None if found is None else Decision(found[0], "tentative", "likely", found[1])
        return self.likely_found

    def detector(self):  # step 8 → tentative
        encoding = detect(self.facts, self.options.mode, self.url)
        return None if encoding is None else _detector_decision(encoding)

    def fallback(self) -> Decision:  # steps 8-9, run once
        if self.fallback_ is None:
            self.fallback_ = self.detector() or self.default()
        return self.fallback_

    def default(self):  # step 9 → tentative (XML and other kinds: UTF-8)
        if self.kind in ("xml", "other"):
            return _UTF_8_DEFAULT
        found = _label(self.options.default)
        if found is not None:
            return Decision(found[0], "tentative", "default", found[1])
        return _default_decision(locale_encoding(self.options.locale))


_METHODS = {kind: tuple(getattr(_Run, name.replace("-", "_")) for name in names)
            for kind, names in STEPS.items()}
#: Each kind's steps after step 4, as (name, method): run_sniffing asks steps 1-4 before it makes
#: a _Run, so a run (and the browsers profile's models) starts here.
LATER_STEPS = {kind: tuple(zip(names, _METHODS[kind]))[names.index("transport") + 1:] for kind, names in STEPS.items()}
# Those that _standard runs one by one: steps 7-9 go together.
_FIRST_STEPS = {kind: tuple(method for name, method in steps if name not in ("likely", "detector", "default"))
                for kind, steps in LATER_STEPS.items()}
# Decisions are immutable: the ones that depend on a setting or an encoding only are built once.
_UTF_8_DEFAULT = Decision(_UTF_8, "tentative", "default")  # XML and other kinds


@functools.lru_cache(maxsize=64)
def _detector_decision(encoding: Encoding) -> Decision:
    return Decision(encoding, "tentative", "detector")


@functools.lru_cache(maxsize=64)
def _default_decision(encoding: Encoding) -> Decision:
    return Decision(encoding, "tentative", "default")


@functools.lru_cache(maxsize=64)  # the same few pairs on every call
def detector_for(detector: DetectorMode | None, profile: Profile) -> DetectorMode:
    """The detector mode for *profile*: ``None`` is ``"full"`` (standard) or ``"browser"``
    (browsers); ``"full"`` contradicts the browsers profile (browsers never detect UTF-8)."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, not {profile!r}")
    if detector is None:
        return DEFAULT_DETECTORS[profile]
    if detector not in DETECTOR_MODES:
        raise ValueError(f"detector must be one of {DETECTOR_MODES}, not {detector!r}")
    if profile == "browsers" and detector == "full":
        raise ValueError('detector "full" contradicts profile "browsers" (browsers never detect UTF-8): '
                         'use detector "browser" or "off"')
    return detector


def _parser_step(run: _Run, decision: Decision, parser_limit: int) -> tuple[Decision, tuple | None]:
    """Step "change the encoding" for a tentative HTML decision; returns (decision, meta found)."""
    if run.kind != "html" or decision.confidence != "tentative":
        return decision, None
    encoding = decision.encoding
    metas = run.metas
    if metas and metas[-1][2] is not None and encoding.is_ascii_compatible:
        # The prescan found the <meta>: where the bytes show that the tokenizer reads what the
        # prescan read, that one (no second search for the first "<meta" and a hint after it).
        found = _plain_meta(run.body, parser_limit, metas)
        if found is not None:
            return change_the_encoding(decision, *found), found
    meta = None
    if encoding.is_ascii_compatible:  # the bytes show whether any such encoding finds one
        if run.meta_at is None:
            run.meta_at = first_parser_meta_bytes(run.body, parser_limit)
        meta = run.meta_at
        if meta < 0 or run.no_plain_meta and (encoding.is_single_byte or encoding is _UTF_8):
            return decision, None
    found = parser_meta(run.body, encoding, parser_limit, run.metas, meta)
    if found is None:
        return decision, None
    return change_the_encoding(decision, *found), found


def _standard(run: _Run, parser_limit: int) -> Decision:
    """The standard's algorithm from step 5 (steps 1-4 found nothing, see :func:`run_sniffing`),
    steps in order, then the parser step. A certain decision (an XML document's declaration) ends
    the run: nothing after it can change the answer. An HTML body with a ``<meta>`` the parser
    acts on when decoded with the default encoding (step 9) skips steps 7-8 (which the standard
    leaves to the user agent, "may"): the ``<meta>`` decides the encoding whatever they give, so
    neither the site's memory nor the detector is asked."""
    for step in _FIRST_STEPS[run.kind]:
        decision = step(run)
        if decision is not None:
            return decision if decision.confidence == "certain" else _parser_step(run, decision, parser_limit)[0]
    if run.kind in ("xml", "other"):
        return run.default()
    # Steps 7-9: the memory may weigh what the detector says.
    decision = _late_meta(run, parser_limit) if run.kind == "html" else None
    return decision or _parser_step(run, run.likely() or run.fallback(), parser_limit)[0]


def _late_meta(run: _Run, parser_limit: int) -> Decision | None:
    """The parser step's decision with the default encoding (step 9), if it finds a ``<meta>``."""
    default = run.default()
    if not default.encoding.is_ascii_compatible:
        return None
    decision, found = _parser_step(run, default, parser_limit)
    if found is not None:
        return decision
    if len(run.body) <= parser_limit and (default.encoding.is_single_byte or default.encoding is _UTF_8):
        # All of it was scanned: UTF-8 and the single-byte encodings, whose decoders never take
        # an ASCII byte into another character, read the same markup.
        run.no_plain_meta = True
    return None


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
    checked against the first ``<meta>`` the tokenizer finds (source ``"parser"`` if it changes).

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
        ``<meta>`` (default :data:`PARSER_LIMIT`, 65,536); 0 turns the step off.
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
    from .decide import Options  # decide imports this module

    options = Options(locale, default, prescan_bytes, profile, detector, parser_limit=parser_limit)
    return run_sniffing(body if isinstance(body, Body) else Body(body), content_type, url, options, override,
                        parent, likely)


def run_sniffing(facts: Body, content_type, url, options: Options, override=None, parent=None,
                 likely=None) -> Decision:
    """The decision for *facts* (:func:`sniff`'s arguments) in *options*' profile: the standard's
    algorithm, then in the browsers profile what Firefox and Chromium make of it. Steps 1, 2 and
    4 come first: a certain decision there ends the run in both profiles (nothing after it can
    change the answer), before any state for the later steps is made."""
    if facts.bom is not None:  # step 1: BOM sniff
        return _bom_decision(facts.bom)
    if override is not None and (decision := _override_decision(override)) is not None:  # step 2
        return decision
    # Step 3 is for the parser's own restarts. Step 4: the transport layer.
    if content_type is not None and (decision := _transport_step(content_type)) is not None:
        return decision
    run = _Run(facts, content_type, url, options, override, parent, likely)
    parser_limit = options.parser_limit
    decision = _standard(run, parser_limit)
    return decision if options.profile == "standard" else _browsers(run, decision, parser_limit)


def _browsers(run: _Run, standard: Decision, parser_limit: int) -> Decision:
    """The browsers profile's decision (:mod:`.browsers_profile`, imported on first use: the
    standard profile never needs it)."""
    return (_browsers_decision or _load_browsers())(run, standard, parser_limit)


def _load_browsers() -> Callable[[_Run, Decision, int], Decision]:
    global _browsers_decision
    from .browsers_profile import browsers_decision

    _browsers_decision = browsers_decision
    return browsers_decision


_browsers_decision: Callable[[_Run, Decision, int], Decision] | None = None


def sniff_steps(body: bytes, *, parser_limit: int = PARSER_LIMIT, profile: Profile = "standard", **options) -> dict:
    """Every step's finding, for explaining a decision (same arguments as :func:`sniff`).

    Returns ``{"kind": "html" | "xml" | "text" | "other", "steps": [(step name, Decision or
    None), ...] for every step of the kind (all run, even after the one that decided),
    "chosen": the first step's Decision, "parser": (Encoding, label, byte offset) or None,
    "decision": the final Decision (equal to ``sniff(body, **options)``), "profile": *profile*,
    "standard": the standard profile's Decision}``: the steps are the standard's; in the
    browsers profile "decision" may differ from "standard"."""
    from .decide import Options  # decide imports this module

    names = ("content_type", "url", "locale", "default", "override", "parent", "likely", "detector",
             "prescan_bytes")
    unknown = set(options) - set(names)
    if unknown:
        raise TypeError(f"unexpected keyword arguments {sorted(unknown)}")
    settings = Options(options.get("locale"), options.get("default"), options.get("prescan_bytes", PRESCAN_BYTES),
                       profile, options.get("detector"), parser_limit=parser_limit)
    run = _Run(Body(body), options.get("content_type"), options.get("url"), settings, options.get("override"),
               options.get("parent"), options.get("likely"))
    kind = run.kind  # (the browsers profile may read the run as another kind)
    steps = [(name, step(run)) for name, step in zip(STEPS[kind], _METHODS[kind])]
    found_by = dict(steps)
    if "detector" in found_by:  # steps 8-9 ran: the final decision reuses them (no second detection)
        run.fallback_ = found_by["detector"] or found_by["default"]
    chosen = next(decision for _, decision in steps if decision is not None)
    found = _parser_step(run, chosen, parser_limit)[1]
    first = found_by["bom"] or found_by["override"] or found_by["transport"]  # certain: the run ends
    standard = first or _standard(run, parser_limit)
    decision = standard if profile == "standard" or first else _browsers(run, standard, parser_limit)
    return {"kind": kind, "steps": steps, "chosen": chosen, "parser": found, "decision": decision,
            "profile": profile, "standard": standard}
