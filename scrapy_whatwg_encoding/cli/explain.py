"""``explain``: one page, every step of the encoding sniffing algorithm in order, the decision,
and the text it gives next to the text Scrapy alone would give."""
from __future__ import annotations

import json
from pathlib import Path

from ..encoding import decode
from ..sniffing.decision import Profile
from ..sniffing.prescan import PRESCAN_BYTES
from .kind import NAMES, DocumentKind, choose_kind
from .scrapy_view import crawl_skips, first_difference, scrapy_inference
from .steps import BOMS, explain_steps, matched_tag, suspect, xml_declaration_bytes

PREVIEW = 200  # characters of decoded text shown
CONTEXT = 40  # characters shown each side of the first difference when it lies beyond the preview


def explain(body: bytes, *, target: dict, scrapy_url: str, content_type: str | None = None,
            document: DocumentKind | None = None, url: str | None = None, locale: str | None = None,
            default: str | None = None, override: str | None = None, likely: str | None = None,
            detector: str | None = None, prescan_bytes: int = PRESCAN_BYTES, profile: Profile = "standard") -> dict:
    """The explanation of *body* (bytes) as a JSON-ready dict.

    *target* describes the input (``{"path": ...}`` or ``{"url": ..., "status": ...}``) and is
    copied into the result with the body's size; *scrapy_url* is the URL Scrapy's own inference
    sees (its extension matters when there is no Content-Type). *content_type* is the page's
    Content-Type header value (``None``: none) and *document* its kind (default: from
    *content_type*, see :func:`.kind.choose_kind`); ``sniff`` gets ``document.content_type``. The
    other arguments are those of :func:`scrapy_whatwg_encoding.sniff`. Keys: ``input``, ``options``,
    ``kind`` (``"html"``, ``"xml"``, ``"text"``, ``"other"``), ``kind_from`` (where the kind comes
    from, for people, e.g. ``"from the file name .xml; --content-type overrides"``), ``steps`` (rows of
    :func:`.steps.explain_steps`), ``skipped`` (``None``, or why a crawl would leave the response as
    Scrapy made it, :func:`.scrapy_view.crawl_skips`: then ``steps`` is empty and ``decision``,
    ``suspect_label``, ``text`` are ``None``), ``decision`` (``Decision.as_dict()``), ``suspect_label`` (``None``,
    or the content contradicts the label the decision came from: :func:`.steps.suspect`), ``text`` (first
    :data:`PREVIEW` characters), ``scrapy`` (``response_class``, ``encoding``, ``same_text``,
    ``first_difference``, ``text``: first characters of Scrapy's text, or None when equal,
    ``context`` / ``our_context``: the texts around the first difference when it lies beyond the
    preview, else None)."""
    options = {"content_type": content_type, "url": url, "locale": locale, "default": default,
               "override": override, "likely": likely, "detector": detector,
               "prescan_bytes": prescan_bytes, "profile": profile}
    document = document or choose_kind(content_type)
    typed = content_type if content_type is not None else document.content_type if document.kind == "other" else None
    skipped = crawl_skips(body, typed, scrapy_url)
    if skipped is not None:
        scrapy = scrapy_inference(body, typed, scrapy_url)
        scrapy.update(text=None, same_text=None, first_difference=None, context=None, our_context=None)
        return {"input": {**target, "bytes": len(body)}, "options": options, "kind": document.kind,
                "kind_from": document.origin, "skipped": skipped, "steps": [], "decision": None,
                "suspect_label": None, "text": None, "scrapy": scrapy}
    explained = explain_steps(body, content_type=document.content_type, header=content_type, url=url,
                              locale=locale, default=default, override=override, likely=likely,
                              detector=detector, prescan_bytes=prescan_bytes, profile=profile)
    decision = explained["decision"]
    text = decode(body, decision.encoding)[0]
    scrapy = scrapy_inference(body, content_type, scrapy_url)
    scrapy_text = scrapy.pop("text")
    difference = first_difference(text, scrapy_text) if scrapy_text is not None else 0
    scrapy.update({"same_text": difference is None, "first_difference": difference,
                   "text": None if difference is None or scrapy_text is None else scrapy_text[:PREVIEW],
                   "context": None, "our_context": None})
    if difference is not None and scrapy_text is not None and difference >= PREVIEW - CONTEXT:
        start = max(difference - CONTEXT, 0)  # the previews agree: show where the texts part
        scrapy["context"] = scrapy_text[start:difference + CONTEXT]
        scrapy["our_context"] = text[start:difference + CONTEXT]
    return {"input": {**target, "bytes": len(body)}, "options": options, "kind": explained["kind"],
            "kind_from": document.origin, "skipped": None, "steps": explained["rows"],
            "decision": decision.as_dict(),
            "suspect_label": suspect(body, decision, url), "text": text[:PREVIEW], "scrapy": scrapy}


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def render(report: dict) -> str:
    """The human-readable form of an :func:`explain` result."""
    source = report["input"]
    where = source.get("url") or source.get("path")
    options = report["options"]
    status = f", HTTP {source['status']}" if source.get("status") else ""
    lines = [f"{where}  ({source['bytes']} bytes{status})",
             f"Document kind: {NAMES[report['kind']]} ({report['kind_from']})",
             (f"Content-Type: {options['content_type'] or '(none)'}   locale: {options['locale'] or '(none)'}"
             f"   detector: {options['detector']}   prescan: {options['prescan_bytes']} bytes"
             f"   profile: {options.get('profile', 'standard')}")]
    if source.get("final_url") and source["final_url"] != source.get("url"):
        lines.insert(1, f"Final URL: {source['final_url']}  (redirected)")
    if source.get("url"):
        lines.append(f"Server's Content-Type: {source['content_type'] or '(none)'}; {source['middleware']}")
    if report["skipped"] is not None:
        scrapy = report["scrapy"]
        return "\n".join([*lines, "", (f"Skipped: a crawl leaves this response as Scrapy made it "
                                       f"({report['skipped']}); no decision"),
                          f"Scrapy alone: {scrapy['response_class']}, encoding {scrapy['encoding'] or '(binary)'}"])
    lines.append("")
    for number, row in enumerate(report["steps"], 1):
        mark = "→" if row["decisive"] else " "
        found, note = row["found"], row["note"]
        if not row["reached"]:  # keep only what the inputs hold (a header, an option, a declaration)
            head = "not reached"
            note = note if found is not None or row["matched"] is not None else ""
        else:
            head = found["encoding"] if found else ("—" if row["applies"] else "n/a")
        lines.append(f"{mark} {number:>2}. {row['title']:<31} {head:<14} {note}".rstrip())
        if row["matched"] is not None:
            lines.append(f"{'':>37} matched at byte {row['offset']}: {row['matched']}")
    decision = report["decision"]
    lines += ["", f"Decision: {decision['encoding']} ({decision['confidence']}), source {decision['source']}"
              + (f", label {decision['label']!r}" if decision["label"] is not None else "")
              + (f", offset {decision['offset']}" if decision["offset"] is not None else ""),
              f"Text ({decision['encoding']}, first {PREVIEW} characters): {_quoted(report['text'])}"]
    flagged = report["suspect_label"]
    if flagged is not None:
        lines.insert(-1, (f"Suspect label ({flagged['kind']}): {flagged['note']}; the standard's answer is the "
                          f"label; WHATWG_ENCODING_SUSPECT_LABELS = \"content\" would decode as "
                          f"{flagged['content_encoding']}"))
    scrapy = report["scrapy"]
    if scrapy["encoding"] is None:
        lines.append(f"Scrapy alone: a binary {scrapy['response_class']} (no text at all)")
    elif scrapy["same_text"]:
        lines.append(f"Scrapy alone: {scrapy['response_class']}, encoding {scrapy['encoding']}: the same text, "
                     "does not differ from Scrapy alone")
    else:
        lines += [(f"Scrapy alone: {scrapy['response_class']}, encoding {scrapy['encoding']}: "
                  f"differs from Scrapy alone (first difference at character {scrapy['first_difference']})"),
                  f"Text (Scrapy, first {PREVIEW} characters): {_quoted(scrapy['text'])}"]
        if scrapy["context"] is not None:
            lines += [f"Around character {scrapy['first_difference']}: ours   {_quoted(scrapy['our_context'])}",
                      f"{'':>{len(str(scrapy['first_difference'])) + 22}}Scrapy {_quoted(scrapy['context'])}"]
    return "\n".join(lines)


def matched_spans(report: dict, body: bytes) -> list[tuple[str, int, int]]:
    """``(step titles, start, end)``: the byte ranges of *body* the steps' declarations matched
    (steps that matched the same bytes share one range)."""
    spans: dict[tuple[int, int], list[str]] = {}
    for row in report["steps"]:
        start = row["offset"]
        if row["matched"] is None or start is None:
            continue
        if row["step"] == "bom":
            length = next(len(mark) for mark, _ in BOMS if body.startswith(mark))
        elif row["step"] == "xml-declaration" and row["found"] is not None:
            length = len(xml_declaration_bytes(body))
        else:
            length = len(matched_tag(body, start))
        spans.setdefault((start, start + length), []).append(row["title"])
    return [(", ".join(titles), start, end) for (start, end), titles in spans.items()]


def write_html(report: dict, body: bytes, path: str) -> None:
    """Write *report* (an :func:`explain` result for *body*) as an HTML page to *path*."""
    from ..report import render_explain_html

    Path(path).write_text(render_explain_html(report, body, matched_spans(report, body)), "utf-8")
