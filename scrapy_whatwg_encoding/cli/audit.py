"""``audit``: run the algorithm over a directory of pages, count decisions per source and
encoding, find the pages Scrapy alone decodes to another text, and, with a manifest of true
encodings (``[{"path", "encoding", "source_label"}, ...]`` as in ``tests/data/corpus``), measure
accuracy. A page is *correct* when its text equals the text of the true encoding (through the
Encoding Standard's "decode": a BOM wins); ``encoding: null`` entries (no Web encoding) are
counted apart."""
from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

from ..encoding import ENCODINGS, decode
from ..report import ReportData, first_difference, render_html
from ..sniffing import sniff
from ..sniffing.decision import Profile
from ..sniffing.mislabel import suspect_label
from . import CliError
from .kind import NAMES, DocumentKind, choose_kind
from .scrapy_view import crawl_skips, scrapy_inference

FIELDS = ("path", "bytes", "content_type", "kind", "kind_from", "encoding", "confidence", "source", "label",
          "offset", "suspect_label", "scrapy_class", "scrapy_encoding", "scrapy_same_text", "expected", "source_label",
          "exact", "correct", "scrapy_correct")


def load_manifest(directory: Path, manifest: str) -> tuple[Path, list[dict]]:
    """Find and read *manifest* (the current directory first, then *directory*).
    Raises :class:`CliError` (code 1) when it is missing or not a list of ``{"path": ...}``."""
    candidates = [Path(manifest)] + ([directory / manifest] if not Path(manifest).is_absolute() else [])
    path = next((c for c in candidates if c.is_file()), None)
    if path is None:
        raise CliError(f"{manifest}: no such manifest file (looked in . and {directory})")
    try:
        entries = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise CliError(f"{path}: cannot read the manifest: {exc}") from None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("path"), str)
                                                for e in entries):
        raise CliError(f"{path}: a manifest is a JSON list of objects with a \"path\"")
    for entry in entries:
        if entry.get("encoding") is not None and entry["encoding"] not in ENCODINGS:
            raise CliError(f"{path}: {entry['path']}: {entry['encoding']!r} is not the name of an encoding")
    return path, entries


def _pages(directory: Path, entries: list[dict] | None, manifest_path: Path | None) -> list[dict]:
    if entries is not None:
        return entries
    skip = {manifest_path.resolve()} if manifest_path else set()
    skip.add((directory / "manifest.json").resolve())
    files = sorted(p for p in directory.rglob("*") if p.is_file() and p.resolve() not in skip
                   and not any(part.startswith(".") for part in p.relative_to(directory).parts))
    return [{"path": p.relative_to(directory).as_posix()} for p in files]


def page_kind(entry: dict, content_type_from: str, content_type: str | None = None
              ) -> tuple[str | None, DocumentKind]:
    """The Content-Type a page is audited with (``None``: none) and its kind: *content_type* for
    every page, ``text/html`` with the manifest *entry*'s charset (``content_type_from="manifest"``),
    else none, the kind then coming from the file name."""
    if content_type_from == "manifest":
        label = entry.get("encoding") or entry.get("source_label")
        content_type = f"text/html; charset={label}" if label else "text/html"
        return content_type, choose_kind(content_type, given_by="--content-type-from manifest")
    return content_type, choose_kind(content_type, path=entry["path"])


def audit_page(directory: Path, entry: dict, content_type_from: str, locale, detector,
               content_type: str | None = None, report: ReportData | None = None,
               profile: Profile = "standard") -> dict:
    """One record (keys :data:`FIELDS`) for the manifest *entry* (or ``{"path"}``); counted in
    *report* (the HTML report's data) when given. A page a crawl would leave as Scrapy made it
    (:func:`.scrapy_view.crawl_skips`: a PDF, JSON or image file...) gives ``{"path", "skipped":
    reason}`` instead, and is not counted."""
    file = directory / entry["path"]
    body = file.read_bytes()
    content_type, document = page_kind(entry, content_type_from, content_type)
    typed = content_type if content_type is not None else document.content_type if document.kind == "other" else None
    skipped = crawl_skips(body, typed, file.resolve().as_uri())
    if skipped is not None:
        return {"path": entry["path"], "skipped": skipped}
    decision = sniff(body, content_type=document.content_type, locale=locale, detector=detector, profile=profile)
    text = decode(body, decision.encoding)[0]
    scrapy = scrapy_inference(body, content_type, file.resolve().as_uri())
    record = {"path": entry["path"], "bytes": len(body), "content_type": content_type,
              "kind": document.kind, "kind_from": document.origin, **decision.as_dict(),
              "suspect_label": suspect_label(body, decision),
              "scrapy_class": scrapy["response_class"],
              "scrapy_encoding": scrapy["encoding"], "scrapy_same_text": scrapy["text"] == text,
              "expected": None, "source_label": entry.get("source_label"),
              "exact": None, "correct": None, "scrapy_correct": None}
    if "encoding" in entry:
        record["expected"] = entry["encoding"]
    if entry.get("encoding") is not None:
        truth = decode(body, ENCODINGS[entry["encoding"]])[0]
        record.update(exact=record["encoding"] == entry["encoding"], correct=text == truth,
                      scrapy_correct=scrapy["text"] == truth)
    if report is not None:
        changed = not record["scrapy_same_text"]
        passage = first_difference(text, scrapy["text"]) if changed and report.wants_example(decision.source) else None
        report.add(entry["path"], decision.as_dict(), scrapy["encoding"], changed, passage,
                   suspect=record["suspect_label"] is not None)
    return record


def audit(directory: Path, *, manifest: str | None = None, content_type_from: str = "none",
          content_type: str | None = None, locale: str | None = None, detector: str = "full",
          progress: bool = True, report: ReportData | None = None, profile: Profile = "standard") -> dict:
    """Audit *directory* (pages sniffed in *profile*); returns ``{"directory", "manifest",
    "content_type_from", "content_type", "locale", "detector", "profile", "pages": [record, ...],
    "skipped": [{"path", "skipped"}] (pages a crawl would leave as Scrapy made them),
    "unreadable": [{"path", "error"}], "summary": {...}}``
    (see :func:`summarize`). Each page is read with *content_type* (``None``: none, each file's name
    then chooses the kind, see :func:`.kind.choose_kind`) or, with ``content_type_from="manifest"``,
    ``text/html`` and its manifest charset. A progress bar (tqdm, on stderr) is shown when *progress*
    and stderr is a terminal. Raises :class:`CliError`: code 1 for an unreadable directory or
    manifest, code 2 for ``content_type_from="manifest"`` without a manifest or with a
    *content_type*, or an invalid *locale*. Every page is also counted in *report* when given."""
    from tqdm import tqdm

    from ..scrapy.settings import InvalidSetting, check_locale

    try:
        locale = check_locale("--locale", locale)
    except InvalidSetting as exc:
        raise CliError(str(exc), 2) from None
    if not directory.is_dir():
        raise CliError(f"{directory}: no such directory")
    if content_type_from == "manifest" and manifest is None:
        raise CliError("--content-type-from manifest needs --manifest", 2)
    if content_type_from == "manifest" and content_type is not None:
        raise CliError("--content-type-from manifest and --content-type exclude each other", 2)
    manifest_path, entries = load_manifest(directory, manifest) if manifest else (None, None)
    pages: list[dict] = []
    skipped: list[dict] = []
    unreadable: list[dict] = []
    for entry in tqdm(_pages(directory, entries, manifest_path), desc="audit", unit="page",
                      disable=None if progress else True, leave=False):
        try:
            record = audit_page(directory, entry, content_type_from, locale, detector, content_type, report,
                                profile)
            (skipped if "skipped" in record else pages).append(record)
        except OSError as exc:
            unreadable.append({"path": entry["path"], "error": exc.strerror or str(exc)})
    return {"directory": str(directory), "manifest": str(manifest_path) if manifest_path else None,
            "content_type_from": content_type_from, "content_type": content_type, "locale": locale,
            "detector": detector, "profile": profile,
            "pages": pages, "skipped": skipped, "unreadable": unreadable,
            "summary": summarize(pages, entries is not None)}


def summarize(pages: list[dict], with_manifest: bool) -> dict:
    """``{"pages", "by_kind": {kind: pages}, "by_source_encoding": [{"source", "encoding", "pages",
    "scrapy_differs"}], "scrapy_differs", "suspect_labels": {kind: pages} (the content contradicts
    the label, see ``sniffing.mislabel``), "accuracy": None or {"judged", "exact", "correct", "scrapy_correct",
    "by_expected": [{"expected", "pages", "correct", "scrapy_correct"}]}, "no_web_encoding":
    None or {"pages", "source_labels": {label: n}, "decided": {encoding: n}}}``."""
    groups: Counter = Counter()
    differs: Counter = Counter()
    for page in pages:
        key = (page["source"], page["encoding"])
        groups[key] += 1
        differs[key] += not page["scrapy_same_text"]
    summary = {
        "pages": len(pages),
        "by_kind": dict(Counter(p["kind"] for p in pages).most_common()),
        "by_source_encoding": [{"source": s, "encoding": e, "pages": n, "scrapy_differs": differs[s, e]}
                               for (s, e), n in sorted(groups.items(), key=lambda i: (-i[1], i[0]))],
        "scrapy_differs": sum(differs.values()),
        "suspect_labels": dict(Counter(p["suspect_label"] for p in pages if p["suspect_label"]).most_common()),
        "accuracy": None, "no_web_encoding": None,
    }
    if not with_manifest:
        return summary
    judged = [p for p in pages if p["expected"] is not None]
    by_expected: dict[str, list[int]] = {}
    for page in judged:
        row = by_expected.setdefault(page["expected"], [0, 0, 0])
        row[0] += 1
        row[1] += page["correct"]
        row[2] += page["scrapy_correct"]
    summary["accuracy"] = {
        "judged": len(judged), "exact": sum(p["exact"] for p in judged),
        "correct": sum(p["correct"] for p in judged), "scrapy_correct": sum(p["scrapy_correct"] for p in judged),
        "by_expected": [{"expected": e, "pages": n, "correct": c, "scrapy_correct": s}
                        for e, (n, c, s) in sorted(by_expected.items(), key=lambda i: i[0].lower())],
    }
    unknown = [p for p in pages if p["expected"] is None]
    summary["no_web_encoding"] = {
        "pages": len(unknown),
        "source_labels": dict(Counter(p["source_label"] or "?" for p in unknown).most_common()),
        "decided": dict(Counter(p["encoding"] for p in unknown).most_common()),
    }
    return summary


def render_csv(report: dict) -> str:
    """One CSV row per page, columns :data:`FIELDS` (empty cell for None)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(report["pages"])
    return out.getvalue().rstrip("\n")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "n/a"


def render_table(report: dict, verbose: bool = False) -> str:
    """The human-readable audit: counts, differences with Scrapy, accuracy."""
    summary, pages = report["summary"], report["pages"]
    header = report["content_type"] or ("from the manifest" if report["content_type_from"] == "manifest" else "none")
    lines = [(f"Audit of {report['directory']}: {summary['pages']} pages "
             f"(Content-Type: {header}, detector {report['detector']}, "
             f"locale {report['locale'] or '(none)'})")]
    if pages:
        kinds = ", ".join(f"{NAMES[kind]} {n}" for kind, n in summary["by_kind"].items())
        origin = ("each file's name" if header == "none" else "--content-type-from manifest"
                  if report["content_type_from"] == "manifest" else "--content-type")
        lines.append(f"Document kinds: {kinds} (from {origin}"
                     + ("; --content-type overrides)" if header == "none" else ")"))
    if report["manifest"]:
        lines.append(f"Manifest: {report['manifest']}")
    lines += ["", f"  {'source':<16} {'encoding':<16} {'pages':>6} {'differs from Scrapy alone':>26}"]
    for row in summary["by_source_encoding"]:
        lines.append(f"  {row['source']:<16} {row['encoding']:<16} {row['pages']:>6} {row['scrapy_differs']:>26}")
    lines.append(f"  {'total':<33} {summary['pages']:>6} {summary['scrapy_differs']:>26}")
    suspects = summary["suspect_labels"]
    if suspects:
        kinds = ", ".join(f"{kind} ×{n}" for kind, n in suspects.items())
        lines += ["", f"Suspect labels (the content contradicts the label): {sum(suspects.values())} pages ({kinds})"]
        lines += [f"  {p['path']}: {p['suspect_label']}, label {p['label']!r} ({p['source']}) → {p['encoding']}"
                  for p in pages if p["suspect_label"]]
    shown = pages if verbose else [p for p in pages if not p["scrapy_same_text"]]
    lines += ["", ("All pages" if verbose else "Pages that differ from Scrapy alone")
              + f": {len(shown)}"]
    if shown:
        width = min(max(len(p["path"]) for p in shown), 60)
        lines.append(f"  {'path':<{width}} {'this algorithm (source)':<32} Scrapy alone")
        for p in shown:
            ours = f"{p['encoding']} ({p['source']})"
            scrapy = p["scrapy_encoding"] or f"binary {p['scrapy_class']}"
            same = "" if p["scrapy_same_text"] else "  (differs)" if verbose else ""
            lines.append(f"  {p['path']:<{width}} {ours:<32} {scrapy}{same}")
    accuracy = summary["accuracy"]
    if accuracy is not None:
        judged = accuracy["judged"]
        lines += ["", (f"Accuracy against the manifest ({judged} pages with a Web encoding; correct = "
                      "same text as the true encoding):"),
                  (f"  this algorithm: {accuracy['correct']} correct ({_percent(accuracy['correct'], judged)}), "
                  f"{accuracy['exact']} with exactly the true encoding"),
                  (f"  Scrapy alone:   {accuracy['scrapy_correct']} correct "
                  f"({_percent(accuracy['scrapy_correct'], judged)})"),
                  "", f"  {'true encoding':<16} {'pages':>6} {'ours':>6} {'Scrapy':>7}"]
        for row in accuracy["by_expected"]:
            lines.append(f"  {row['expected']:<16} {row['pages']:>6} {row['correct']:>6} {row['scrapy_correct']:>7}")
        misses = [p for p in pages if p["correct"] is False]
        if misses:
            lines += ["", f"Pages this algorithm decodes wrongly: {len(misses)}"]
            lines += [f"  {p['path']}: true {p['expected']}, decided {p['encoding']} ({p['source']})" for p in misses]
        unknown = summary["no_web_encoding"]
        if unknown["pages"]:
            labels = ", ".join(f"{k} ×{v}" for k, v in unknown["source_labels"].items())
            decided = ", ".join(f"{k} ×{v}" for k, v in unknown["decided"].items())
            lines += ["", (f"No Web encoding (manifest encoding null, not judged): {unknown['pages']} pages "
                          f"({labels}); decided as {decided}")]
    if report["skipped"]:
        lines += ["", f"Skipped (a crawl leaves them as Scrapy made them): {len(report['skipped'])}"]
        lines += [f"  {p['path']}: {p['skipped']}" for p in report["skipped"]]
    if report["unreadable"]:
        lines += ["", f"Unreadable files: {len(report['unreadable'])}"]
        lines += [f"  {u['path']}: {u['error']}" for u in report["unreadable"]]
    return "\n".join(lines)


def write_html(report: dict, data: ReportData, path: str) -> None:
    """Write the HTML report of an :func:`audit` (*data* counted its pages) to *path*."""
    details = [("Content-Type", report["content_type_from"]), ("detector", report["detector"]),
               ("locale", report["locale"] or "(none)"), ("manifest", report["manifest"] or "(none)")]
    Path(path).write_text(render_html(data, title=report["directory"], details=details,
                                      accuracy=report["summary"]["accuracy"]), "utf-8")
