"""Exactness report: the exact decoders vs the spec-literal reference, per encoding.

Usage: python tools/exactness_report.py [NAME ...] [--python-codecs] [--show N]

Runs the byte strings of ``tests/cases.py`` (every single byte, every two-byte sequence, gb18030
four-byte sequences, EUC-JP ``8F xx yy``, ISO-2022-JP escapes, UTF-16 surrogates, truncated
tails) and the pages of ``tests/data/corpus`` through ``Encoding.decode`` and through
``tests/reference.py``, and prints a table: per encoding, the number of byte strings compared and
how many give different text (must be 0). ``--python-codecs`` adds a column with the mismatch
count of CPython's nearest codec (``bytes.decode(codec, "replace")``) on the same strings, which
shows that the cases discriminate. Exit status 1 if any exact decoder mismatches.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cases import compare_decoder, corpus_cases, decoder_cases, describe_mismatches
from reference import encoding_names

from scrapy_whatwg_encoding import ENCODINGS

NEAREST = {
    "UTF-8": "utf-8", "IBM866": "cp866", "ISO-8859-8-I": "iso8859-8", "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u", "macintosh": "mac_roman", "windows-874": "cp874",
    "x-mac-cyrillic": "mac_cyrillic", "GBK": "gbk", "gb18030": "gb18030", "Big5": "big5hkscs",
    "EUC-JP": "euc_jp", "ISO-2022-JP": "iso2022_jp", "Shift_JIS": "cp932", "EUC-KR": "cp949",
    "UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le",
}


def nearest_codec(name):
    """CPython's nearest codec for an encoding, or None (x-user-defined, replacement)."""
    if name in NEAREST:
        return NEAREST[name]
    if name.startswith("windows-"):
        return "cp" + name[8:]
    if name.startswith("ISO-8859-"):
        return "iso8859-" + name[9:]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="encoding names (default: all 40)")
    parser.add_argument("--python-codecs", action="store_true",
                        help="also count mismatches of CPython's nearest codec")
    parser.add_argument("--show", type=int, default=3, help="mismatching inputs to print")
    args = parser.parse_args()
    names = args.names or list(encoding_names())
    corpus = corpus_cases()

    header = f"{'encoding':<16}{'strings':>10}{'mismatches':>12}"
    if args.python_codecs:
        header += f"{'CPython codec':>20}{'its mismatches':>16}"
    print(header)
    print("-" * len(header))
    total = total_bad = 0
    failures = []
    start = time.perf_counter()
    for name in names:
        groups = dict(decoder_cases(name))
        groups["corpus"] = [data for enc, _, data in corpus if enc == name]
        compared, mismatches = compare_decoder(name, ENCODINGS[name].decode, groups)
        total += compared
        total_bad += len(mismatches)
        row = f"{name:<16}{compared:>10}{len(mismatches):>12}"
        if args.python_codecs:
            codec = nearest_codec(name)
            if codec is None:
                row += f"{'(none)':>20}{'all':>16}"
            else:
                _, py_bad = compare_decoder(
                    name, lambda data, codec=codec: data.decode(codec, "replace"), groups)
                row += f"{codec:>20}{len(py_bad):>16}"
        print(row, flush=True)
        if mismatches:
            failures.append(describe_mismatches(name, compared, mismatches, args.show))
    print("-" * len(header))
    print(f"{'total':<16}{total:>10}{total_bad:>12}")
    print(f"({time.perf_counter() - start:.1f} s)")
    for failure in failures:
        print(failure)
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
