"""Compare the package with the recorded browser answers and classify every disagreement.

    python tools/differential/compare.py tests/data/browsers/answers.jsonl.gz [--json OUT] [--list]

For each recorded document (regenerated from the seed): Firefox's and Chromium's
``document.characterSet``, ``sniff(..., detector="browser")`` in the standard profile and
``sniff(..., profile="browsers")``. Printed: where the browsers disagree with each other, by
cause; where they agree, the standard profile's differences from them by cause, and every
remaining difference of the browsers profile (``--list`` prints each document). A cause is
named from what the standard's decision and the browsers' ``<meta>`` scans
(``sniffing.browsers``) read; "other" is a cause not yet understood.
"""
from __future__ import annotations

import argparse
import collections
import gzip
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import grammar

from scrapy_whatwg_encoding import get_encoding, sniff
from scrapy_whatwg_encoding.sniffing import browsers
from scrapy_whatwg_encoding.sniffing.content_type import content_type_facts
from scrapy_whatwg_encoding.sniffing.meta_charset import meta_encoding
from scrapy_whatwg_encoding.sniffing.mime_sniff import is_untyped
from scrapy_whatwg_encoding.sniffing.sniff import sniff_steps

_HEAD_MODES = ("initial", "before html", "before head", "in head", "in head noscript")


def read_answers(path) -> tuple[dict, list[dict]]:
    """The header line and the document lines of a recorded answers file (``.gz`` or not)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        header = json.loads(next(lines))
        return header, [json.loads(line) for line in lines]


def name(label: str | None) -> str | None:
    """A browser's ``characterSet`` as the Encoding Standard's name (``None``: no answer)."""
    encoding = get_encoding(label) if label else None
    return encoding.name if encoding is not None else label


def rule(standard: str, firefox: str | None, chromium: str | None) -> str:
    """The browsers profile's answer (docs/browsers.rst), from encoding names: where one browser
    shows no document (``None``), the other's answer; where they agree, theirs; else the standard's
    if one of them gives it, else Chromium's."""
    if firefox is None or chromium is None:
        return firefox or chromium or standard
    if firefox == chromium:
        return firefox
    return standard if standard in (firefox, chromium) else chromium


def _meta_at(text: str, offset: int):
    for lt, _, span, mode in browsers.tree_metas(text):
        if lt == offset:
            return span, mode
    return None


def _reading(span: str, standard: str) -> str:
    """Why the browsers read a meta's attributes otherwise than the standard (*standard*: the
    encoding name the standard got from it)."""
    names = [n for n, _ in browsers.attribute_list(span)]
    if "charset" in names and "content" in names:
        return "a charset attribute beside http-equiv and content"
    if "&" in span:
        return "character reference in an attribute value"
    if len(names) != len(set(names)):
        return "duplicated attribute"
    return "meta attribute reading"


def _in_noscript(text: str, offset: int) -> bool:
    before = text[:offset].lower()
    return before.rfind("<noscript") > before.rfind("</noscript")


def standard_cause(body: bytes, content_type: str, standard, answer: str) -> str:
    """Why the standard profile's *standard* Decision differs from the browsers' *answer*."""
    essence, kind, _ = content_type_facts(content_type)
    if not essence or essence in ("unknown/unknown", "application/unknown"):
        return "untyped response: typed by MIME sniffing (HTML, XML, text)"
    if kind == "other":
        return f"{essence} shown as plain text"
    if standard.source == "detector":
        if standard.encoding.name == "ISO-2022-JP":
            return "7-bit ISO-2022-JP detection"
        return "detector"
    text = body[:1 << 16].decode("latin-1")
    chosen = browsers.chromium_meta(body, 1 << 16) or browsers.firefox_meta(body, 1 << 16)
    if chosen is not None and _in_noscript(text, chosen[2]):
        return "<noscript> content is markup (scripting disabled)"
    if standard.source in ("prescan", "parser"):
        found = _meta_at(text, standard.offset)
        if found is None:
            where = "in the first 1024 bytes" if standard.source == "prescan" else "late"
            return f"<meta> {where} that the tokenizer does not see (raw text, noscript, comment, attribute)"
        span, mode = found
        ff, ch = browsers.firefox_meta_encoding(span), browsers.chromium_meta_encoding(span)
        read_otherwise = ff is None and ch is None or (ff and meta_encoding(ff[0]).name) != standard.encoding.name
        if read_otherwise and (standard.offset < 1024 or mode in _HEAD_MODES):
            return _reading(span, standard.encoding.name)
        if standard.source == "parser":
            return f"late <meta> ({mode})" if mode not in _HEAD_MODES else "late <meta> in head"
        if chosen is not None and "&" in (_meta_at(text, chosen[2]) or ("",))[0]:
            return "character reference in an attribute value"
        return "other <meta> read first by the browsers"
    parser = sniff_steps(body, content_type=content_type, detector="browser")["parser"]
    certain = _meta_at(text, parser[2]) if parser is not None else None  # the meta that made it certain
    if certain is not None and _reading(certain[0], "") == "a charset attribute beside http-equiv and content":
        return "a charset attribute beside http-equiv and content"
    if chosen is not None:
        span, mode = _meta_at(text, chosen[2]) or ("", "?")
        if chosen[2] < 1024:
            if "&" in span:
                return "character reference in an attribute value"
            return f"<meta> the standard's prescan misses ({standard.source} instead)"
        return f"late <meta> the standard does not take ({standard.source} instead)"
    return "other"


def browsers_cause(body: bytes, content_type: str, firefox: str, chromium: str) -> str:
    """Why Firefox and Chromium disagree on a document (from the two models)."""
    if firefox is None or chromium is None:
        return "a load failed"
    essence, kind, charset = content_type_facts(content_type)
    if not essence or essence in ("unknown/unknown", "application/unknown"):
        return "untyped response: the browsers type it otherwise (Chromium's HTML prefixes need no tag end)"
    content_type = content_type or ""
    if kind == "xml":
        return "XML declaration naming UTF-16 in ASCII bytes (Chromium: UTF-8)"
    if charset is None and "charset" in content_type.lower():
        return "Content-Type charset that Fetch rejects (Chromium reads it)"
    ff = browsers.firefox_meta(body, 1 << 16)
    ch = browsers.chromium_meta(body, 1 << 16)
    if ff is None and ch is None:
        return "detector (chardetng vs Chromium's)"
    if ff is not None and ch is not None and ff[2] == ch[2]:
        text = body[:1 << 16].decode("latin-1")
        span = (_meta_at(text, ff[2]) or ("", ""))[0]
        names = [n for n, _ in browsers.attribute_list(span)]
        if len(names) != len(set(names)):
            return "duplicated attribute (Firefox the first, Chromium the last)"
        if "charset" in names:
            return "empty or failing charset attribute"
        return "content: a charset not followed by = (Firefox stops)"
    if ff is not None and (ch is None or ff[2] < ch[2]):
        return "a <meta> only Firefox reads (tree builder: SVG/MathML, late in head)"
    return "a <meta> only Chromium reads (tokenizer: head section past 1024 bytes)"


# Families whose documents a browser may rightly show as no document (a download).
DOWNLOADS = ("untyped", "ctype", "sniff")


def content_type_group(content_type) -> str:
    """The Content-Type group of a document, as Fetch reads its value: ``"text/html"``,
    ``"untyped"`` (none, unparsable, ``*/*``, ``unknown/unknown``, ``application/unknown``) or
    ``"other types"``."""
    essence = content_type_facts(content_type)[0]
    if is_untyped(essence):
        return "untyped"
    return "text/html" if essence == "text/html" else "other types"


def compare(path) -> dict:
    header, lines = read_answers(path)
    seed = header["seed"]
    result = {"documents": len(lines), "browsers": header["browsers"], "seed": seed,
              "agree": 0, "disagree": collections.Counter(), "failed": 0,
              "standard": collections.Counter(), "standard_total": 0,
              "profile_on_agreement": [], "profile_on_disagreement": collections.Counter(), "families": collections.Counter(),
              "one_document": collections.Counter(), "untyped_agree": 0, "untyped_profile": 0,
              "groups": collections.defaultdict(collections.Counter)}
    for line in lines:
        family, content_type, body = grammar.document(seed, line["i"])
        result["families"][family] += 1
        firefox, chromium = name(line["firefox"]), name(line["chromium"])
        if family in DOWNLOADS and (firefox is None) != (chromium is None):
            # One browser shows no document (Firefox downloads unknown/unknown, application/unknown):
            # the profile gives the other's answer.
            profile = sniff(body, content_type=content_type, profile="browsers")
            result["one_document"]["profile gives the one document's answer"
                                   if profile.encoding.name == rule("", firefox, chromium) else "other"] += 1
            continue
        if firefox is None or chromium is None:
            result["failed" if family not in DOWNLOADS else "no_document"] = \
                result.get("failed" if family not in DOWNLOADS else "no_document", 0) + 1
            continue
        standard = sniff(body, content_type=content_type, detector="browser")
        profile = sniff(body, content_type=content_type, profile="browsers")
        if family == "untyped" and firefox == chromium:
            result["untyped_agree"] += 1
            result["untyped_profile"] += profile.encoding.name == firefox
        if firefox != chromium:
            result["disagree"][browsers_cause(body, content_type, firefox, chromium)] += 1
            if profile.encoding.name == rule(standard.encoding.name, firefox, chromium):
                verdict = "as the rule says"
            elif profile.source in ("detector", "default") and firefox == profile.encoding.name:
                # Chromium read no <meta> and its own detector answered: the profile gives Firefox's
                # answer (chardetng's, or the default where it finds nothing).
                verdict = "Chromium's detector (not modelled): Firefox's answer"
            else:
                verdict = "other"
            result["profile_on_disagreement"][verdict] += 1
            continue
        result["agree"] += 1
        group = result["groups"][content_type_group(content_type)]
        group["agree"] += 1
        group["profile"] += profile.encoding.name == firefox
        if standard.encoding.name != firefox:
            result["standard_total"] += 1
            result["standard"][standard_cause(body, content_type, standard, firefox)] += 1
        if profile.encoding.name != firefox:
            result["profile_on_agreement"].append({
                "i": line["i"], "family": family, "content_type": content_type, "browsers": firefox,
                "profile": profile.encoding.name, "source": profile.source,
                "cause": standard_cause(body, content_type, profile, firefox), "body": body[:300].decode("latin-1")})
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("answers")
    parser.add_argument("--json", help="write the summary here")
    parser.add_argument("--list", action="store_true", help="print each remaining difference of the browsers profile")
    args = parser.parse_args(argv)
    r = compare(args.answers)
    agree = r["agree"]
    total = r["documents"] - r["failed"] - r.get("no_document", 0) - sum(r["one_document"].values())
    print(f"{r['documents']} documents (seed {r['seed']}), {r['browsers']}; families {dict(r['families'])}")
    print(f"failed loads: {r['failed']}; the browsers agree on {agree} of {total} ({100 * agree / total:.2f} %)")
    print(f"\nwhere they disagree ({total - agree}), by cause:")
    for cause, count in r["disagree"].most_common():
        print(f"  {count:6d}  {cause}")
    print(f"  browsers profile there: {dict(r['profile_on_disagreement'])}")
    if r["one_document"] or r.get("no_document"):
        print(f"untyped responses that one browser shows (the other downloads): {dict(r['one_document'])}; "
              f"that neither shows: {r.get('no_document', 0)}")
    if r["untyped_agree"]:
        print(f"untyped responses where both browsers agree: the browsers profile matches {r['untyped_profile']} "
              f"of {r['untyped_agree']}")
    print(f"\nwhere they agree: the standard profile differs on {r['standard_total']} ({100 * r['standard_total'] / agree:.2f} %), by cause:")
    for cause, count in r["standard"].most_common():
        print(f"  {count:6d}  {cause}")
    for group, counts in sorted(r["groups"].items()):
        print(f"  {group}: the browsers profile gives their answer on {counts['profile']} of {counts['agree']}")
    remaining = r["profile_on_agreement"]
    print(f"\nwhere they agree: the browsers profile matches {agree - len(remaining)} of {agree} "
          f"({100 * (agree - len(remaining)) / agree:.3f} %); remaining {len(remaining)}:")
    for case in remaining if args.list else remaining[:20]:
        print(f"  #{case['i']} {case['family']} {case['content_type']!r}: browsers {case['browsers']}, "
              f"profile {case['profile']} ({case['source']}): {case['cause']}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(r, indent=1, default=dict))
    return 0


if __name__ == "__main__":
    sys.exit(main())
