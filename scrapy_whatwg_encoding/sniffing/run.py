"""One run of the encoding sniffing algorithm (HTML §13.2.3.2) and its parser step (§13.2.3.4), in
the standard's order, yielding a :class:`Trace` (docs/design.rst, "One run").

:func:`run` is the algorithm, composed once: :func:`~.sniff.sniff`, :func:`~.sniff.sniff_steps`,
:meth:`~.decide.Options.decide`, the explanations and the report read its trace. A browser is a
:class:`Model` of the same run (how it types an untyped response, what its ``<meta>`` scan
reads, what its detector gives): the browsers profile (``browsers_profile``) runs the models
on the same :class:`~.body.Body`, whose :attr:`~.body.Body.memo` keeps what they share (the
detector's answer, the likely encoding, the parser step's findings) so that nothing is worked out
twice and no run changes another's state.

Shortcuts live inside their step, beside a plain twin (``shortcuts=False`` runs the twins);
tests/oracles/test_one_run.py holds both against an oracle written from the standard's text.
"""
from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..encoding import ENCODINGS, Encoding, get_encoding
from .body import Body
from .change import (
    PARSER_LIMIT,
    change_the_encoding,
    first_parser_meta_bytes,
    metas_alike,
    parser_meta_span,
    utf_8_finds_none_alike,
)
from .container import container_encoding
from .content_type import DocumentKind, content_type_facts, parse_mime_type, per_value
from .decision import DEFAULT_DETECTORS, DETECTOR_MODES, PROFILES, Decision, DetectorMode, Profile
from .detect import detect
from .locale import locale_encoding
from .prescan import PRESCAN_BYTES, prescan_result
from .steps import Step
from .xml_encoding import xml_declared_encoding

logger = logging.getLogger(__name__)

#: A likely encoding computed from the body (step 7), such as a site's memory: called with the
#: :class:`~.body.Body` and what steps 8-9 give (a tentative :class:`Decision`), only when steps
#: 1-6 found nothing; returns a label, an :class:`Encoding` or ``None``.
Likely = Callable[[Body, Decision], "str | Encoding | None"]
_UTF_8 = ENCODINGS["UTF-8"]
#: Step 9 for XML and other kinds: UTF-8 (XML 1.0 Appendix F; no HTML default applies).
UTF_8_DEFAULT = Decision(_UTF_8, "tentative", "default")
# ASCII bytes that ISO-2022-JP decodes otherwise than the ASCII-compatible encodings: its escape
# (0x1B) and shifts (0x0E, 0x0F); each looked for with bytes.find (memchr: several times faster
# than a regex's character class).
_NOT_ALIKE = (b"\x0e", b"\x0f", b"\x1b")


@functools.lru_cache(maxsize=64)  # the same few pairs on every call
def detector_for(detector: DetectorMode | None, profile: Profile) -> DetectorMode:
    """The detector mode for *profile*: ``None`` is ``"full"`` (standard) or ``"browser"``
    (browsers); ``"full"`` contradicts the browsers profile (browsers never detect UTF-8).
    Raises ``ValueError`` for an unknown *profile* or *detector* and for that contradiction."""
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


@dataclass(frozen=True, slots=True)
class Settings:
    """What is the same for every body of a crawl: :func:`~.sniff.sniff`'s arguments of those
    names (see there), checked once. Raises ``ValueError`` for a bad *detector* or *profile*; a
    negative *prescan_bytes* counts as 0. :class:`~.decide.Options` adds the suspect-label choice."""

    locale: str | None = None
    default: str | Encoding | None = None
    prescan_bytes: int = PRESCAN_BYTES
    profile: Profile = "standard"
    detector: DetectorMode | None = None
    parser_limit: int = field(default=PARSER_LIMIT, kw_only=True)
    #: The detector mode in effect (*detector*, else the profile's own).
    mode: DetectorMode = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "mode", detector_for(self.detector, self.profile))
        object.__setattr__(self, "prescan_bytes", max(int(self.prescan_bytes), 0))


@dataclass(frozen=True, slots=True)
class Model:
    """How a reader runs the algorithm. The standard's run is :data:`STANDARD`; the browsers'
    models (``browsers_profile``) differ in five places, each a parameter here:

    - ``type_of(essence, kind, body)``: the kind of document it reads a response as, after steps
      1-4 found nothing (``None``: it shows no document; ``"media"``: UTF-8; ``"pdf"``: the
      HTML default), or ``None`` for the Content-Type's kind;
    - ``scan(body, settings, shortcuts)``: its ``<meta>`` scan as step 5, late metas included (a
      :class:`Decision` or ``None``; no parser step follows), or ``None`` for the standard's
      prescan and parser step;
    - ``seven_bit_jis``: whether its detector gives ISO-2022-JP for an ASCII HTML body;
    - ``facts(content_type)``: how it reads a Content-Type value, ``(essence, kind, charset)``
      as ``content_type.content_type_facts()`` gives them, or ``None`` for Fetch's reading;
    - ``text_detector(body, url)``: its detector's own answer for plain text where the standard's
      finds nothing (an :class:`~scrapy_whatwg_encoding.Encoding` or ``None``), or ``None``."""

    name: str
    type_of: Callable[[str, DocumentKind, Body], str | None] | None = None
    scan: Callable[[Body, Settings, bool], Decision | None] | None = None
    seven_bit_jis: bool = True
    facts: Callable[[str | bytes | None], tuple[str, DocumentKind, str | None]] | None = None
    text_detector: Callable[[Body, str | None], Encoding | None] | None = None


STANDARD = Model("standard")


@dataclass(slots=True)
class Trace:
    """What one run did. ``kind``: the kind of document read (``"html"``, ``"xml"``, ``"text"``,
    ``"other"``; a model may also read ``"media"``, ``"pdf"`` or ``None``: no document);
    ``steps``: every step asked, in order, as ``(Step, Decision or None)``; ``notes``: why a step
    found nothing or was not asked, where that is known (``{Step: str}``); ``chosen``: the first
    step's decision; ``parser``: what the parser step found, ``(Encoding, label, byte offset)``
    or ``None``; ``decision``: the final :class:`Decision` (``None`` only where a model shows no
    document); ``model``: the :class:`Model`'s name.

    >>> from scrapy_whatwg_encoding.sniffing.body import Body
    >>> trace = run(Body(b'<!--' + b'x' * 1100 + b'--><meta charset="koi8-r">'), "text/html", None, Settings())
    >>> [str(step) for step, _ in trace.steps], trace.found(Step.DETECTOR)
    (['bom', 'override', 'transport', 'prescan', 'container', 'likely', 'detector', 'default'], None)
    >>> trace.chosen.source, trace.decision.source, trace.decision.encoding.name, trace.parser[2]
    ('default', 'parser', 'KOI8-R', 1107)
    """

    kind: str | None
    model: str = "standard"
    every_step: bool = False
    steps: list[tuple[Step, Decision | None]] = field(default_factory=list)
    notes: dict[Step, str] = field(default_factory=dict)
    chosen: Decision | None = None
    parser: tuple[Encoding, str, int] | None = None
    decision: Decision | None = None

    def ask(self, step: Step, find: Callable[[], Decision | None]) -> Decision | None:
        """Ask *step* (*find* gives its finding) unless an earlier step decided — an every-step
        trace (for explanations) asks it anyway and keeps the first finding; returns the
        decision so far."""
        if self.chosen is None or self.every_step:
            found = find()
            self.steps.append((step, found))
            if self.chosen is None:
                self.chosen = found
        return self.chosen

    def found(self, step: Step) -> Decision | None:
        """What *step* found (``None``: nothing, or it was not asked)."""
        return next((found for asked, found in self.steps if asked is step), None)


# Steps 1, 2, 4 and 9's decisions depend on a label or an encoding only: built once each.
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
def bom_decision(encoding: Encoding) -> Decision:
    """Step 1's decision for a BOM of *encoding*: certain, offset 0."""
    return Decision(encoding, "certain", "bom", None, 0)


def override_decision(override: str | Encoding) -> Decision | None:
    """Step 2's decision for the user override (a label or an :class:`Encoding`), or ``None``."""
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


@per_value
def charset_decision(label: str) -> Decision | None:
    """Step 4 for a charset parameter *label* a model read from the Content-Type: certain, or
    ``None`` when it is no label."""
    found = _label(label)
    return None if found is None else Decision(found[0], "certain", "transport", found[1])


def _why_ignored(content_type, label: str | None) -> str | None:
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


@functools.lru_cache(maxsize=64)
def _tentative(encoding: Encoding, source: str) -> Decision:
    return Decision(encoding, "tentative", source)  # type: ignore[arg-type]


def default_decision(kind: str | None, settings: Settings) -> Decision:
    """Step 9: the user default, else the locale's (HTML and plain text), else UTF-8."""
    if kind not in ("html", "text", "pdf"):
        return UTF_8_DEFAULT
    found = _label(settings.default)
    if found is not None:
        return Decision(found[0], "tentative", "default", found[1])
    return _tentative(locale_encoding(settings.locale), "default")


def detected(body: Body, mode: DetectorMode, url: str | None) -> Encoding | None:
    """``detect(body, mode, url)`` (:func:`.detect.detect`), run once per body, mode and URL: kept
    in ``body.memo``, which every model of a run and the suspect-label check share."""
    key = ("detector", mode, url)
    memo = body.memo
    if key not in memo:
        memo[key] = detect(body, mode, url)
    return memo[key]


def fallback(body: Body, kind: str | None, url, settings: Settings) -> Decision:
    """Steps 8-9: the detector's answer (:func:`detected`), else the default."""
    encoding = detected(body, settings.mode, url)
    return default_decision(kind, settings) if encoding is None else _tentative(encoding, "detector")


def likely_decision(body: Body, likely, kind: str | None, url, settings: Settings) -> Decision | None:
    """Step 7: *likely* (a label, an :class:`Encoding` or a :data:`Likely` callable, which weighs
    the body against what steps 8-9 give); asked once per body (a site's memory counts what it
    applies)."""
    memo = body.memo
    if "likely" not in memo:
        value = likely(body, fallback(body, kind, url, settings)) if callable(likely) else likely
        found = _label(value)
        memo["likely"] = None if found is None else Decision(found[0], "tentative", "likely", found[1])
    return memo["likely"]


def run(body: Body, content_type: str | bytes | None, url: str | None, settings: Settings,
        override: str | Encoding | None = None, parent=None, likely=None, *, model: Model = STANDARD,
        every_step: bool = False, shortcuts: bool = True) -> Trace:
    """Run the encoding sniffing algorithm on *body* as *model* reads it (see :func:`~.sniff.sniff`
    for the arguments) and return the :class:`Trace`. With *every_step*, every step of the kind
    is asked even after one decided (the explanations show what each would give); the decision
    is the same. *shortcuts* ``False`` runs each step's plain twin. Never raises for bytes input
    and valid *settings*."""
    essence, kind, charset = (content_type_facts if model.facts is None else model.facts)(content_type)
    trace = Trace(kind, model.name, every_step)
    ask = trace.ask
    # Steps 1, 2 and 4 (3 is the parser's own restart), certain: a decision ends the run.
    decision = trace.chosen = trace.decision = _certain_steps(body, content_type, charset, override, model, trace)
    if decision is not None and not every_step:
        return trace
    if model.type_of is not None:  # the model reads the response as a kind of its own
        kind = trace.kind = model.type_of(essence, kind, body)  # type: ignore[assignment]
        if kind in (None, "media", "pdf"):
            trace.decision = None if kind is None else default_decision(kind, settings)
            return trace
    if kind == "html":
        # 5. Prescan the first bytes for a <meta> (and "get an XML encoding"), tentative; a
        # model's scan reads its late metas too.
        if model.scan is None:
            decision = ask(Step.PRESCAN, lambda: _prescan(body, settings))
        else:
            decision = ask(Step.PRESCAN, lambda: model.scan(body, settings, shortcuts))  # type: ignore[misc]
    elif kind == "xml":
        # (XML 1.0 Appendix F) The XML declaration's encoding, certain.
        decision = ask(Step.XML_DECLARATION, lambda: _xml_declaration(body.data))
    if decision is None or every_step:
        if kind in ("html", "text"):
            # 6. The container document's encoding (a frame of the same origin), tentative.
            ask(Step.CONTAINER, lambda: _container(parent, url))
            # 7. A likely encoding (a site's memory), tentative.
            ask(Step.LIKELY, lambda: None if likely is None else likely_decision(body, likely, kind, url, settings))
            # 8. Autodetection, tentative.
            ask(Step.DETECTOR, lambda: _autodetect(body, kind, url, settings, model, trace, shortcuts))
        # 9. The default (the user's, else the locale's; UTF-8 for XML and other kinds), tentative.
        decision = ask(Step.DEFAULT, lambda: default_decision(kind, settings))
    trace.decision = decision
    # The parser step (§13.2.3.4): the first <meta> the tree builder acts on may change a
    # tentative HTML decision (a model's scan read the late metas already).
    if kind == "html" and model.scan is None and decision is not None and decision.confidence == "tentative":
        found = _parser_meta(body, decision.encoding, settings.parser_limit, shortcuts)
        if found is not None:
            trace.parser = found[:3]
            trace.decision = change_the_encoding(decision, *found[:3])
    return trace


def _certain_steps(body: Body, content_type, charset: str | None, override, model: Model,
                   trace: Trace) -> Decision | None:
    """Steps 1, 2 and 4 of *trace*'s run (each asked while none decided, or all of them in an
    every-step trace): the first certain decision, or ``None``."""
    steps, every_step = trace.steps, trace.every_step
    # 1. BOM sniff: a byte order mark decides.
    decision = None if body.bom is None else bom_decision(body.bom)
    steps.append((Step.BOM, decision))
    # 2. The user override.
    if decision is None or every_step:
        found = None if override is None else override_decision(override)
        steps.append((Step.OVERRIDE, found))
        decision = decision or found
    # 4. The transport layer's charset (a model's own reading of the Content-Type, where it has one).
    if decision is None or every_step:
        found = None
        if model.facts is not None:
            found = None if charset is None else charset_decision(charset)
        elif content_type is not None:
            found, ignored = transport_decision(content_type)
            if ignored is not None:
                trace.notes[Step.TRANSPORT] = ignored
                if logger.isEnabledFor(logging.DEBUG):
                    logger.debug("%s", ignored)
        steps.append((Step.TRANSPORT, found))
        decision = decision or found
    return decision


def _prescan(body: Body, settings: Settings) -> Decision | None:
    """Step 5 (kept in ``body.memo`` with the ``<meta`` tags read, for the parser step: where it
    found nothing, no ``<meta>`` in those bytes declares an encoding, see :func:`_parser_meta`)."""
    memo, key = body.memo, ("prescan", settings.prescan_bytes)
    if key not in memo:
        metas: list = []
        found = prescan_result(body.data, settings.prescan_bytes, metas)
        memo["metas"] = metas
        memo[key] = None if found is None else Decision(found[0], "tentative", found[3], found[1], found[2])
    return memo[key]


def _xml_declaration(data: bytes) -> Decision | None:
    found = xml_declared_encoding(data)  # to the declaration's ">", wherever it lies
    return None if found is None else Decision(found[0], "certain", "xml-declaration", found[1], 0)


def _container(parent, url) -> Decision | None:
    found = container_encoding(parent, url)
    return None if found is None else Decision(found[0], "tentative", "container", found[1])


def _autodetect(body: Body, kind, url, settings: Settings, model: Model, trace: Trace,
                shortcuts: bool) -> Decision | None:
    """Step 8 ("may"). Shortcut: where the parser step finds a ``<meta>`` with the default encoding
    whose bytes up to its end decode alike in every encoding step 8 can give (ASCII but for
    ISO-2022-JP's escape and shifts), the parser step decides whatever step 8 gives, and it is
    not asked. Its twin runs the detector (:func:`fallback`)."""
    memo = body.memo
    if ("detector", settings.mode, url) not in memo and shortcuts and kind == "html" and model.scan is None \
            and not trace.every_step and _meta_decides(body, settings):
        trace.notes[Step.DETECTOR] = "not asked: a <meta> the parser step finds decides whatever it gives"
        return None
    found = fallback(body, kind, url, settings)
    if found.source != "detector":
        own = None if kind != "text" or model.text_detector is None else model.text_detector(body, url)
        return None if own is None else _tentative(own, "detector")
    if not model.seven_bit_jis and kind == "html" and found.encoding.name == "ISO-2022-JP" and body.is_ascii:
        return None  # browsers do not detect 7-bit ISO-2022-JP
    return found


def _meta_decides(body: Body, settings: Settings) -> bool:
    """Whether the parser step's ``<meta>`` with step 9's encoding is the one it finds with any
    encoding step 8 can give (then "change the encoding" gives its encoding whatever that is).

    Step 8 gives an ASCII-compatible encoding (chardetng, or UTF-8), or ISO-2022-JP for a body
    without a byte ≥ 0x80, which reads it alike up to its first escape or shift (0x1B, 0x0E,
    0x0F). Every ASCII-compatible encoding reads the same markup up to the tag's end but in a
    ``<meta>`` tag with an ASCII byte a multi-byte decoder takes as a trail byte
    (:func:`.change.metas_alike`), with no more characters than bytes: the same tag within the
    limit, where step 9's encoding is single-byte (else the bytes up to its end are ASCII)."""
    default = default_decision("html", settings).encoding
    if not default.is_ascii_compatible:
        return False
    # ISO-2022-JP reads an ASCII body alike only up to its first escape or shift: where one comes
    # before the first <meta> the parser step may find, that <meta> does not decide (the tokenizer
    # is not run); the search stops at the <meta>, not at the body's end.
    if body.is_ascii:
        meta_at = first_meta_at(body, settings.parser_limit)
        if meta_at < 0 or _shifts_before(body.data, meta_at):
            return False
    found = _parser_meta(body, default, settings.parser_limit, True)
    if found is None:
        return False
    end = found[3]  # bytes where they are ASCII up to it, else at most the bytes (see parser_meta_span)
    if body.is_ascii:
        return not _shifts_before(body.data, end)
    if not default.is_single_byte:
        first = body.first_non_ascii
        return first is not None and first >= end
    return metas_alike(body.data, end)


def _shifts_before(data: bytes, end: int) -> bool:
    """Whether an ISO-2022-JP escape or shift (0x1B, 0x0E, 0x0F) lies in ``data[:end]``."""
    return any(data.find(byte, 0, end) >= 0 for byte in _NOT_ALIKE)


def first_meta_at(body: Body, limit: int) -> int:
    """Where the parser step may find a ``<meta>`` in *body* with any ASCII-compatible encoding
    within *limit* (:func:`.change.first_parser_meta_bytes`: a byte offset, or -1), found once per
    body and limit for every run over it (kept in ``body.memo``)."""
    memo, key = body.memo, ("meta at", limit)
    meta = memo.get(key)
    if meta is None:
        meta = memo[key] = first_parser_meta_bytes(body.data, limit)
    return meta


def parser_findings(body: Body, limit: int) -> Iterator[tuple[Encoding, tuple[Encoding, str, int, int]]]:
    """What the parser step found in *body* within *limit* in the runs over it so far (kept in
    ``body.memo``): ``(encoding it read the body with, (Encoding, label, byte offset, end))`` for
    each encoding with which it found a ``<meta>`` (see :func:`.change.parser_meta_span`), in the
    order the runs asked."""
    for key, found in body.memo.items():
        if type(key) is tuple and key[0] == "parser" and key[2] == limit and found is not None:
            yield key[1], found


def _parser_meta(body: Body, encoding: Encoding, limit: int, shortcuts: bool):
    """The parser step's finding with *encoding* (kept in ``body.memo``): ``(Encoding, label,
    byte offset, end)`` or ``None`` (see :func:`.change.parser_meta_span`)."""
    key = ("parser", encoding, limit, shortcuts)
    memo = body.memo
    singles = [(other[1], found) for other, found in memo.items() if type(other) is tuple and other[0] == "parser"
               and other[2:] == key[2:] and other[1].is_single_byte] if shortcuts and key not in memo else []
    if singles and encoding.is_single_byte:
        # Shortcut: another single-byte encoding's finding. Each reads a character per byte, the
        # same for each ASCII byte; the tokenizer and tree builder treat every other character
        # alike, and no label has one (the same tag names the same encoding).
        memo[key] = singles[0][1]
    if singles and encoding is _UTF_8 and body.bom is None:
        single = next((other for other, found in singles if found is None), None)
        if single is not None and utf_8_finds_none_alike(body.data, limit, body.decoded(single)):
            memo[key] = None  # Shortcut: a single-byte encoding's finding of none is UTF-8's (see there)
    if key not in memo:
        metas, meta = memo.get("metas"), None
        if shortcuts and encoding.is_ascii_compatible and not (metas and metas[-1][2] is not None):
            meta = first_meta_at(body, limit)
        whole = None if body.bom is not None else functools.partial(body.text, encoding)  # (a BOM's text is its own)
        # (the most bytes a prescan over the body read and found nothing in: see _prescan)
        prescan_none = max((other[1] for other, found in memo.items() if type(other) is tuple and other[0] == "prescan"
                            and found is None), default=0)
        memo[key] = parser_meta_span(body.data, encoding, limit, metas, shortcuts, meta, whole, prescan_none)
    return memo[key]
