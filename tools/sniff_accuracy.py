"""Accuracy of the encoding decision on tests/data/corpus with the declarations stripped.

Usage: python tools/sniff_accuracy.py [CORPUS_DIR] [--verbose]

Each corpus file (manifest.json gives its true encoding; files whose encoding the Web platform
lacks, ``encoding: null``, are left out) loses its in-band declarations — the XML declaration's
``encoding`` pseudo-attribute and every ``<meta>`` naming a charset (BOMs stay: they are the
encoding itself, not a label) — and is then judged, side by side in one run, by:

- ``sniff full``: ``sniff(body)`` (HTML kind, no URL, detector "full"),
- ``sniff browser``: ``sniff(body, detector="browser")``,
- ``chardetng``: chardetng alone (``chardetng_py.detect(body, allow_utf8=True)``),
- ``scrapy``: Scrapy's own inference, ``HtmlResponse(...).encoding`` (w3lib + charset-normalizer),
  its Python codec name mapped to the WHATWG encoding with the same decoder.

Two scores per column: ``encoding`` — the decided encoding is the true one (GBK and gb18030
count as one: they share a decoder); ``text`` — decoding with the decided encoding gives exactly
the text the true encoding gives (e.g. KOI8-U for a KOI8-R page without the few differing bytes).
"""
from __future__ import annotations

import argparse
import codecs
import json
import pathlib
import re
import sys

import chardetng_py
from scrapy.http import HtmlResponse

from scrapy_whatwg_encoding import ENCODINGS, decode, get_encoding, sniff
from scrapy_whatwg_encoding.sniffing.detect import from_chardetng

CORPUS = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"

_XML_ENCODING = re.compile(rb"""(<\?xml[^>]*?)\s+encoding\s*=\s*(?:"[^"]*"|'[^']*')""", re.IGNORECASE)
_META = re.compile(rb"<meta\b[^>]*charset[^>]*>", re.IGNORECASE)

# Python codec names (codecs.lookup(...).name) → the WHATWG encoding with the same decoder.
_PYTHON = {
    "ascii": "windows-1252", "latin-1": "windows-1252", "iso8859-1": "windows-1252", "cp1252": "windows-1252",
    "utf-8": "UTF-8", "utf-8-sig": "UTF-8", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE",
    "utf-16": "UTF-16LE", "cp866": "IBM866", "koi8-r": "KOI8-R", "koi8-u": "KOI8-U",
    "mac-cyrillic": "x-mac-cyrillic", "gb2312": "GBK", "gbk": "GBK", "gb18030": "gb18030",
    "big5": "Big5", "big5hkscs": "Big5", "cp950": "Big5", "shift_jis": "Shift_JIS", "cp932": "Shift_JIS",
    "shift_jisx0213": "Shift_JIS", "shift_jis_2004": "Shift_JIS", "euc_jp": "EUC-JP",
    "euc_jis_2004": "EUC-JP", "euc_jisx0213": "EUC-JP", "euc_kr": "EUC-KR", "cp949": "EUC-KR",
    "johab": None, "iso2022_jp": "ISO-2022-JP", "iso2022_kr": "replacement", "cp874": "windows-874",
    "tis-620": "windows-874", "iso8859-11": "windows-874", "mac-roman": "macintosh",
}
for _n in range(1250, 1259):
    _PYTHON[f"cp{_n}"] = f"windows-{_n}"
for _n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16):
    _PYTHON[f"iso8859-{_n}"] = f"ISO-8859-{_n}"


def strip_declarations(body: bytes) -> bytes:
    return _META.sub(b"", _XML_ENCODING.sub(rb"\1", body))


def whatwg_from_python(name: str | None):
    if not name:
        return None
    try:
        canonical = codecs.lookup(name).name
    except LookupError:
        return get_encoding(name)
    if canonical in _PYTHON:
        found = _PYTHON[canonical]
        return ENCODINGS[found] if found else None
    return get_encoding(canonical)


def judges():
    def scrapy(body):
        return whatwg_from_python(HtmlResponse("http://corpus.invalid/", body=body).encoding)

    return {
        "sniff full": lambda body: sniff(body).encoding,
        "sniff browser": lambda body: sniff(body, detector="browser").encoding,
        "chardetng": lambda body: from_chardetng(chardetng_py.detect(body, allow_utf8=True)),
        "scrapy": scrapy,
    }


def same_encoding(found, truth) -> bool:
    if found is None:
        return False
    group = {"GBK": "gb18030"}
    return group.get(found.name, found.name) == group.get(truth.name, truth.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=pathlib.Path, default=CORPUS)
    parser.add_argument("--verbose", action="store_true", help="list every page where 'sniff full' is not exact")
    args = parser.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text())
    columns = judges()
    scores = {name: [0, 0] for name in columns}
    total = skipped = 0
    misses = []
    for entry in manifest:
        if entry["encoding"] is None:
            skipped += 1
            continue
        truth = ENCODINGS[entry["encoding"]]
        body = strip_declarations((args.corpus / entry["path"]).read_bytes())
        expected_text = decode(body, truth)[0]
        total += 1
        for name, judge in columns.items():
            found = judge(body)
            exact = same_encoding(found, truth)
            text = exact or (found is not None and decode(body, found)[0] == expected_text)
            scores[name][0] += exact
            scores[name][1] += text
            if name == "sniff full" and not exact:
                misses.append((entry["path"], truth.name, found.name if found else None,
                               "same text" if text else "WRONG TEXT"))
    print(f"corpus: {args.corpus}  pages judged: {total}  (left out, no Web encoding: {skipped})")
    print("declarations stripped (XML encoding=, <meta ... charset ...>); BOMs kept")
    print(f"{'':<16}{'encoding':>10}{'text':>10}")
    for name, (exact, text) in scores.items():
        print(f"{name:<16}{100 * exact / total:>9.1f}%{100 * text / total:>9.1f}%")
    if args.verbose:
        for miss in misses:
            print("miss:", *miss, file=sys.stderr)


if __name__ == "__main__":
    main()
