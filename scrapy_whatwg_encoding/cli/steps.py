"""What each step of the encoding sniffing algorithm (HTML §13.2.3.2, §13.2.3.4) found for one
body, in the standard's order, with the bytes a declaration matched and their offset.

Built on :func:`scrapy_whatwg_encoding.sniffing.sniff_steps` (the one run, asking every step) and
:func:`scrapy_whatwg_encoding.sniffing.prescan.prescan_result` (which tells a ``<meta>`` from an
XML declaration); the bytes shown are re-read from the body at the offsets those report.
"""
from __future__ import annotations

import re

from ..encoding import get_encoding
from ..sniffing import PARSER_LIMIT, sniff_steps
from ..sniffing.content_type import transport_charset
from ..sniffing.decision import Profile
from ..sniffing.mislabel import content_decision, suspect_label
from ..sniffing.parser_scan import PARSER_HEAD
from ..sniffing.prescan import PRESCAN_BYTES
from ..sniffing.steps import ORDER as STEP_ORDER

#: Every row of an explanation, in the order the algorithm considers them (:data:`.steps.ORDER`).
ORDER = tuple(step.value for step in STEP_ORDER)
TITLES = {step.value: step.heading for step in STEP_ORDER}
#: What each kind of suspect label (``sniffing.mislabel.KINDS``) means, for people.
SUSPECT_NOTES = {
    "utf-8": "the body is valid UTF-8 with non-ASCII bytes",
    "replacement": "the label names the replacement encoding: the whole page decodes to one U+FFFD",
    "x-user-defined": "x-user-defined turns every non-ASCII byte into a private-use character",
    "undecodable": "the label's decoder gives U+FFFD where the detected encoding decodes the bytes cleanly",
}
MATCH_SHOWN = 200  # bytes of a matched declaration shown at most

BOMS = ((b"\xef\xbb\xbf", "EF BB BF"), (b"\xfe\xff", "FE FF"), (b"\xff\xfe", "FF FE"))
# A start tag up to its ">", quoted values may hold ">" (display only: the offset is the
# algorithm's own, this only finds where the tag text ends).
_TAG = re.compile(rb"<[^\t\n\x0c\r />]*(?:\"[^\"]*\"|'[^']*'|[^>\"'])*>")
# An XML declaration's encoding label (display only, for labels "get an encoding" rejects).
_XML_LABEL = re.compile(rb"<\?xml[^>]*?encoding[\x00-\x20]*=[\x00-\x20]*[\"']([^\"'>\x00-\x20]*)[\"']")


def show_bytes(data: bytes) -> str:
    """*data* as readable text: printable ASCII as is, other bytes as ``\\xNN``."""
    return repr(bytes(data))[2:-1]


def matched_tag(body: bytes, offset: int) -> bytes:
    """The bytes of the tag (``<meta ...>``, ``<?xml ...?>``) starting at byte *offset*."""
    window = body[offset:offset + 4 * MATCH_SHOWN]
    match = _TAG.match(window)
    if match is not None:
        return match.group()[:MATCH_SHOWN]
    end = window.find(b">")
    return window[: end + 1 if end >= 0 else MATCH_SHOWN][:MATCH_SHOWN]


def xml_declaration_bytes(body: bytes) -> bytes:
    if body.startswith((b"<\x00?\x00", b"\x00<\x00?")):  # UTF-16 forms: to the ">" code unit
        for i in range(0, min(len(body), 4 * MATCH_SHOWN) - 1, 2):
            if body[i:i + 2] in (b">\x00", b"\x00>"):
                return body[: i + 2]
        return body[:MATCH_SHOWN]
    return matched_tag(body, 0)


def suspect(body: bytes, decision, url: str | None = None) -> dict | None:
    """Whether the label *decision* (a ``Decision`` for *body*) came from is contradicted by the
    content (:func:`~scrapy_whatwg_encoding.sniffing.mislabel.suspect_label`): ``None``, or
    ``{"kind", "note": SUSPECT_NOTES[kind], "content_encoding": the WHATWG name the setting
    WHATWG_ENCODING_SUSPECT_LABELS = "content" would decode with}``."""
    kind = suspect_label(body, decision, url=url)
    if kind is None:
        return None
    return {"kind": kind, "note": SUSPECT_NOTES[kind],
            "content_encoding": content_decision(body, decision, kind, url=url).encoding.name}


def explain_steps(body: bytes, *, content_type: str | None = None, header: str | None = None,
                  url: str | None = None, locale: str | None = None, default: str | None = None,
                  override: str | None = None, likely: str | None = None,
                  detector: str | None = None, prescan_bytes: int = PRESCAN_BYTES, profile: Profile = "standard") -> dict:
    """Run the algorithm on *body* (bytes) and describe every step (the standard's steps; in the
    browsers *profile* the final decision may come from the browsers' consensus instead).

    *content_type* is what :func:`~scrapy_whatwg_encoding.sniff` gets (it may stand for a file's
    kind, see :mod:`.kind`); *header* is the Content-Type header value the page came with (``None``:
    none), which the transport step's note describes. The other arguments are ``sniff``'s.
    Returns ``{"kind", "rows": [row, ...] in :data:`ORDER`, "chosen": Decision of the first step
    that found something, "decision": the final Decision}``; a row is ``{"step", "title",
    "applies": bool, "found": Decision.as_dict() or None, "note": str, "matched": the declaration's
    bytes shown with ``\\xNN`` escapes or None, "offset": byte offset or None, "decisive": bool
    (this step's finding made the decision), "reached": bool (False: an earlier step decided, so the
    algorithm never ran this step; a finding from the inputs — a header, an option, a declaration in
    the body — is kept for information, the autodetection and default rows are emptied)}``.
    Raises ``ValueError`` for an unknown *detector*."""
    result = sniff_steps(body, content_type=content_type, url=url, locale=locale, default=default,
                         override=override, likely=likely, detector=detector,
                         prescan_bytes=prescan_bytes, profile=profile)
    kind, chosen, decision = result["kind"], result["chosen"], result["decision"]
    found = dict(result["steps"])
    rows = {name: {"step": name, "title": TITLES[name], "applies": True, "found": None, "note": "",
                   "matched": None, "offset": None, "decisive": False,
                   "reached": True} for name in ORDER}

    def put(name, decision_, note, matched=None, offset=None):
        row = rows[name]
        row["found"] = decision_.as_dict() if decision_ is not None else None
        row["note"] = note
        if matched is not None:
            row["matched"], row["offset"] = show_bytes(matched), offset

    for name in ORDER:
        if name not in found and not (kind == "html" and name in ("parser", "xml-declaration")):
            rows[name]["applies"] = False  # (for HTML the XML declaration is the prescan's, see below)
            rows[name]["note"] = f"not a step for {kind} documents"
    _input_rows(put, body, found, override, header)
    _declaration_rows(put, body, kind, found, prescan_bytes)
    if kind == "html":
        _parser_row(put, body, chosen, decision, result["parser"])
    _later_rows(put, found, kind, likely=likely, detector=detector, default=default, locale=locale)
    first = "xml-declaration" if chosen.source == "xml-declaration" else chosen.source
    rows[first]["decisive"] = True
    for name in ORDER[ORDER.index(first) + 1:]:  # sniff_steps runs them all; the algorithm stops
        if name != "parser" and rows[name]["applies"]:
            rows[name]["reached"] = False
            if name in ("detector", "default"):  # what they would give is no finding of the page
                rows[name].update(found=None, note="")
    if decision.source == "parser":
        rows["parser"]["decisive"] = True
    return {"kind": kind, "rows": [rows[name] for name in ORDER], "chosen": chosen, "decision": decision}




def _input_rows(put, body: bytes, found: dict, override, header) -> None:
    """The BOM, override and transport rows."""
    bom = found["bom"]
    if bom is not None:
        mark = next((m, text) for m, text in BOMS if body.startswith(m))
        put("bom", bom, f"{mark[1]} → {bom.encoding.name}", mark[0], 0)
    else:
        put("bom", None, "no byte order mark")

    if override is None:
        put("override", None, "none given")
    elif found["override"] is None:
        put("override", None, f"{override!r}: get an encoding fails, ignored")
    else:
        put("override", found["override"], f"{override!r} → {found['override'].encoding.name}")

    charset = transport_charset(header)
    if header is None:
        put("transport", None, "no Content-Type")
    elif charset is None:
        put("transport", None, f"Content-Type {header!r} has no charset parameter")
    elif found["transport"] is None:
        put("transport", None, f"charset={charset!r}: get an encoding fails, ignored")
    else:
        put("transport", found["transport"], f"charset={charset!r} → {found['transport'].encoding.name}")



def _declaration_rows(put, body: bytes, kind: str, found: dict, prescan_bytes: int) -> None:
    """The prescan and XML declaration rows."""
    if kind == "html":
        _prescan_rows(put, body, found["prescan"], prescan_bytes)
    elif kind == "xml":
        xml = found["xml-declaration"]
        if xml is None:
            _no_xml_encoding(put, body, max(prescan_bytes, PRESCAN_BYTES),
                             "no XML declaration naming an encoding at the start")
        else:
            label = f"encoding={xml.label!r}" if xml.label else "UTF-16 form without encoding"
            put("xml-declaration", xml, f"{label} → {xml.encoding.name}", xml_declaration_bytes(body), 0)



def _later_rows(put, found: dict, kind: str, *, likely, detector, default, locale) -> None:
    """The container, likely, autodetection and default rows."""
    if "container" in found:
        put("container", None, "no container document (not a frame)")
    if "likely" in found:
        put("likely", found["likely"], "none given" if likely is None else
            (f"{likely!r} → {found['likely'].encoding.name}" if found["likely"] else
             f"{likely!r}: get an encoding fails, ignored"))
    if "detector" in found:
        detected = found["detector"]
        if detector == "off":
            put("detector", None, "mode off")
        elif detected is None:
            put("detector", None, f"mode {detector}: nothing detected (no non-ASCII byte)")
        else:
            put("detector", detected, f"mode {detector}: {detected.encoding.name}")
    fallback = found["default"]
    if kind in ("xml", "other"):
        put("default", fallback, f"UTF-8 for {kind} documents")
    elif default is not None and get_encoding(default) is not None:
        put("default", fallback, f"--default {default!r} → {fallback.encoding.name}")
    else:
        locale_note = f"locale {locale!r}" if locale else "no locale (all other locales)"
        put("default", fallback, f"{locale_note} → {fallback.encoding.name}")


def _prescan_rows(put, body: bytes, prescanned, prescan_bytes: int) -> None:
    if prescanned is None:
        put("prescan", None, f"no <meta> naming an encoding in the first {prescan_bytes} bytes")
        _no_xml_encoding(put, body, prescan_bytes, "no XML declaration naming an encoding (get an XML encoding)")
    elif prescanned.source == "prescan":
        put("prescan", prescanned, f"<meta> label {prescanned.label!r} at byte {prescanned.offset} "
            f"→ {prescanned.encoding.name}", matched_tag(body, prescanned.offset), prescanned.offset)
        put("xml-declaration", None, "the prescan found a <meta> first")
    else:
        put("prescan", None, f"no <meta> naming an encoding in the first {prescan_bytes} bytes; "
            "get an XML encoding ran (next row)")
        label = f"encoding={prescanned.label!r}" if prescanned.label else "UTF-16 form of <?x"
        put("xml-declaration", prescanned, f"{label} → {prescanned.encoding.name}",
            xml_declaration_bytes(body), 0)


def _no_xml_encoding(put, body: bytes, limit: int, note: str) -> None:
    """The XML declaration row when it gave no encoding: a label "get an encoding" fails on, if the
    first *limit* bytes declare one, else *note*."""
    declared = _XML_LABEL.match(body[:limit])
    if declared is not None:
        put("xml-declaration", None, f"encoding={show_bytes(declared.group(1))!r}: get an encoding "
            "fails, ignored", matched_tag(body, 0), 0)
    else:
        put("xml-declaration", None, note)


def _parser_row(put, body: bytes, chosen, decision, meta) -> None:
    if chosen.confidence == "certain":
        put("parser", None, "not run: the confidence is already certain")
    elif meta is None:
        put("parser", None, f"no <meta> charset found by the tokenizer in the first {PARSER_HEAD} "
            f"characters, nor later in the head (up to {PARSER_LIMIT}): {chosen.encoding.name} stays tentative")
    else:
        _new, label, offset = meta
        if decision.source == "parser" and decision.encoding is not chosen.encoding:
            note = (f"<meta> label {label!r} at byte {offset}: change the encoding "
                    f"{chosen.encoding.name} → {decision.encoding.name} (certain)")
        elif decision.source == "parser":
            note = (f"<meta> label {label!r} at byte {offset} declares {decision.encoding.name}, "
                    "the encoding in use: it becomes certain")
        else:
            note = (f"<meta> label {label!r} at byte {offset} agrees (or cannot change it): "
                    f"{decision.encoding.name} becomes certain")
        put("parser", decision if decision.source == "parser" else None, note,
            matched_tag(body, offset), offset)
