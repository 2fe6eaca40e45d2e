"""Accuracy of the encoding decision on unlabeled real pages, side by side with other detectors.

Usage: python tools/sniff_accuracy.py [CORPUS_DIR] [--verbose] [--no-big]

Each corpus file (manifest.json gives its true encoding; files whose encoding the Web platform
lacks, ``encoding: null``, are left out) loses its in-band declarations — the XML declaration's
``encoding`` pseudo-attribute and every ``<meta>`` naming a charset (BOMs stay: they are the
encoding itself, not a label) — and is judged, with its real host name as URL (see
:func:`host_of`; the TLD hints chardetng, and Scrapy gets the URL too), by:

- ``package full`` / ``package browser``: ``sniff(body, url=URL, detector=...)``;
- ``chardetng``: chardetng alone over the whole body (``allow_utf8=True``, the TLD);
- ``uchardet``: uchardet alone over the whole body (the faust-cchardet wheel);
- ``charset-normalizer``: ``from_bytes(body).best()``;
- ``scrapy``: Scrapy's own inference, ``HtmlResponse(URL, body=body).encoding``.

Every answer is mapped to the WHATWG encoding with the same decoder and judged through the
package's exact decoders. Two scores per column: ``encoding`` — the answer is the true encoding
(GBK and gb18030 count as one: they share a decoder); ``text`` — decoding with it gives exactly
the text the true encoding gives (e.g. KOI8-U for a KOI8-R page without the few differing bytes).
Then the misses of each column by true encoding (text score), and the time ``sniff`` takes on a
50 MB unlabeled UTF-8 page whose only non-ASCII bytes are at its very end.
"""
from __future__ import annotations

import argparse
import codecs
import collections
import functools
import json
import pathlib
import re
import sys
import time

import cchardet
import chardetng_py
import tldextract
from charset_normalizer import from_bytes
from scrapy.http import HtmlResponse

from scrapy_whatwg_encoding import ENCODINGS, decode, get_encoding, sniff
from scrapy_whatwg_encoding.sniffing.detect import from_chardetng, from_uchardet, tld_of

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

# Top-level domains of the time the corpus was crawled (the 2000s): the country codes (two
# letters, from the Public Suffix List) and these generic ones. Later gTLDs (.blog, .news,
# .health, ...) appear in the file names only as path words after the host.
_OLD_GTLDS = frozenset(["com", "net", "org", "edu", "gov", "mil", "int", "arpa", "info", "biz", "name", "pro", "aero", "coop", "museum", "mobi", "jobs", "travel", "cat", "tel", "asia"])


def strip_declarations(body: bytes) -> bytes:
    return _META.sub(b"", _XML_ENCODING.sub(rb"\1", body))


@functools.lru_cache(maxsize=1)
def _public_suffixes() -> frozenset[str]:
    # tldextract (a Scrapy dependency) ships a snapshot of the Public Suffix List: no network.
    return frozenset(tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None,
                                           include_psl_private_domains=True).tlds)


def host_of(file_name: str) -> str | None:
    """The host a corpus file came from, read from its name (``host[.path words].ext``): the
    labels up to the first one that is a top-level domain of the crawl's time (a two-letter
    country code or a generic TLD of the 2000s), extended by the longest public suffix that
    starts there (``bbc.co.uk.hu.xml`` → ``bbc.co.uk``, ``aif.ru.health.xml`` → ``aif.ru``).
    ``None`` for test files (names starting with ``_``) and names without such a label."""
    stem = file_name.rsplit(".", 1)[0]
    if stem.startswith("_"):
        return None
    labels = stem.lower().split(".")
    suffixes = _public_suffixes()
    for first in range(1, len(labels)):
        label = labels[first]
        if label in _OLD_GTLDS or (len(label) == 2 and label.isascii() and label.isalpha() and label in suffixes):
            end = max(k for k in range(first, len(labels)) if ".".join(labels[first:k + 1]) in suffixes
                      or k == first)
            return ".".join(labels[:end + 1])
    return None


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
    """Columns: name → function(body, url) → Encoding | None."""
    def scrapy(body, url):
        return whatwg_from_python(HtmlResponse(url or "http://corpus.invalid/", body=body).encoding)

    def normalizer(body, url):
        best = from_bytes(body).best()
        return whatwg_from_python(best.encoding) if best else None

    return {
        "package full": lambda body, url: sniff(body, url=url).encoding,
        "package browser": lambda body, url: sniff(body, url=url, detector="browser").encoding,
        "chardetng": lambda body, url: from_chardetng(chardetng_py.detect(body, allow_utf8=True, tld=tld_of(url))),
        "uchardet": lambda body, url: from_uchardet(cchardet.detect(body)["encoding"]),
        "charset-normalizer": normalizer,
        "scrapy": scrapy,
    }


def same_encoding(found, truth) -> bool:
    if found is None:
        return False
    group = {"GBK": "gb18030"}
    return group.get(found.name, found.name) == group.get(truth.name, truth.name)


def time_big_page(size: int = 50 * 1024 * 1024) -> None:
    """Print the decision and time of ``sniff`` on a *size*-byte (50 MiB) unlabeled page, ASCII but for
    its last bytes (UTF-8 ``é ü 日本``; then the same tail in windows-1252, ``é ü``)."""
    filler = b"<p>" + b"ASCII text " * 9 + b"</p>\n"
    for tail, truth in (("é ü 日本</p>".encode(), "UTF-8"), ("é ü</p>".encode("windows-1252"), "windows-1252")):
        body = (filler * (size // len(filler) + 1))[:size - len(tail)] + tail
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            decision = sniff(body, url="http://example.com/")
            best = min(best, time.perf_counter() - start)
        print(f"{len(body) / 2**20:.0f} MiB unlabeled page, first non-ASCII byte {len(tail)} bytes before its end: "
              f"{decision.encoding.name} (true: {truth}) from {decision.source} in {1e3 * best:.0f} ms (best of 3)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=pathlib.Path, default=CORPUS)
    parser.add_argument("--verbose", action="store_true", help="list every page the package's 'full' mode misses")
    parser.add_argument("--no-big", action="store_true", help="skip the 50 MB timing")
    args = parser.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text())
    columns = judges()
    scores = {name: [0, 0] for name in columns}
    misses: dict[str, collections.Counter] = {name: collections.Counter() for name in columns}
    per_encoding: collections.Counter = collections.Counter()
    total = skipped = with_host = 0
    verbose = []
    for entry in manifest:
        if entry["encoding"] is None:
            skipped += 1
            continue
        truth = ENCODINGS[entry["encoding"]]
        host = host_of(entry["path"].rsplit("/", 1)[-1])
        url = f"http://{host}/" if host else None
        body = strip_declarations((args.corpus / entry["path"]).read_bytes())
        expected_text = decode(body, truth)[0]
        total += 1
        with_host += host is not None
        per_encoding[truth.name] += 1
        for name, judge in columns.items():
            found = judge(body, url)
            exact = same_encoding(found, truth)
            text = exact or (found is not None and decode(body, found)[0] == expected_text)
            scores[name][0] += exact
            scores[name][1] += text
            misses[name][truth.name] += not text
            if name == "package full" and not exact:
                verbose.append((entry["path"], url, truth.name, found.name if found else None,
                                "same text" if text else "WRONG TEXT"))
    print(f"corpus: {args.corpus}  pages judged: {total}  (left out, no Web encoding: {skipped}); "
          f"{with_host} with a host URL from the file name")
    print("declarations stripped (XML encoding=, <meta ... charset ...>); BOMs kept")
    print(f"{'':<20}{'encoding':>10}{'text':>10}{'text (pages)':>14}")
    for name, (exact, text) in scores.items():
        print(f"{name:<20}{100 * exact / total:>9.1f}%{100 * text / total:>9.1f}%{text:>8}/{total}")
    print("\nmisses (wrong text) by true encoding:")
    print(f"{'':<16}{'pages':>6}" + "".join(f"{name[:12]:>13}" for name in columns))
    for encoding in sorted(per_encoding):
        row = [misses[name][encoding] for name in columns]
        if any(row):
            print(f"{encoding:<16}{per_encoding[encoding]:>6}" + "".join(f"{n or '':>13}" for n in row))
    if args.verbose:
        for miss in verbose:
            print("miss:", *miss, file=sys.stderr)
    if not args.no_big:
        print()
        time_big_page()


if __name__ == "__main__":
    main()
