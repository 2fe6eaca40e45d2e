"""Throughput of the parser step (sniffing.parser_scan.find_parser_meta) against html5lib's tokenizer
and tree builder on the corpus pages, side by side in one run.

Each corpus file is decoded as windows-1252-like ISO-8859-1 (one character per byte) and cut to
LIMIT characters. Three inputs per page:
  served    - the page as it is (the scan stops at the first qualifying meta, or at the last
              "<meta" that could name an encoding);
  stripped  - every "charset" spelled "charsex" (an unlabeled page: usually nothing to scan);
  full      - stripped, plus a <meta charset> appended at the end: the scan reads on while the
              page is in its head (past the first 1,024 characters it stops where the page
              leaves it);
  full+svg  - full, with "<svg></svg>" just before that meta: the tree builder runs over the
              whole text (the worst case for a page of that size).
The baseline is html5lib's tokenizer and tree builder on the same texts, stopping at the same meta
(tests/_html5lib_oracle.py, the oracle of the tests).

Usage: python tools/bench_parser_meta.py [LIMIT] [REPEAT]
html5lib is only needed here and in the tests (it is in the "test" extra).
"""
from __future__ import annotations

import json
import pathlib
import sys
import time

from scrapy_whatwg_encoding.sniffing.parser_scan import find_parser_meta

DATA = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data"


def load(limit: int) -> list[str]:
    manifest = json.loads((DATA / "corpus" / "manifest.json").read_text())
    return [(DATA / "corpus" / e["path"]).read_bytes()[:limit].decode("latin-1") for e in manifest]


def best(fn, texts, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for text in texts:
            fn(text)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 65536
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    served = load(limit)
    stripped = [t.replace("charset", "charsex").replace("CHARSET", "CHARSEX") for t in served]
    full = [t + '<meta charset="koi8-r">' for t in stripped]
    full_svg = [t + '<svg></svg><meta charset="koi8-r">' for t in stripped]
    inputs = (("served", served), ("stripped", stripped), ("full", full), ("full+svg", full_svg))
    size = {name: sum(map(len, texts)) / 1e6 for name, texts in inputs}
    found = sum(find_parser_meta(t, limit + 64) is not None for t in full)
    assert found > 0
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
    try:
        from _html5lib_oracle import oracle_parser_meta
    except ImportError:  # pragma: no cover - html5lib is in the "test" extra
        oracle_parser_meta = None
    print(f"{len(served)} corpus files, limit {limit} characters, best of {repeat}")
    print(f"full-scan inputs whose appended meta is reached: {found}/{len(full)} "
          "(the rest end inside a plaintext/frameset/comment/raw-text element or an unclosed tag)")
    print(f"{'input':10} {'MB':>7} {'parser.py MB/s':>15} {'html5lib MB/s':>14} {'speed-up':>9}")
    for name, texts in inputs:
        ours = best(lambda t: find_parser_meta(t, limit + 64), texts, repeat)
        mbs = size[name] / ours
        if oracle_parser_meta is not None:
            theirs = best(oracle_parser_meta, texts, 1)
            base = size[name] / theirs
            print(f"{name:10} {size[name]:7.2f} {mbs:15.1f} {base:14.2f} {mbs / base:8.0f}x")
        else:
            print(f"{name:10} {size[name]:7.2f} {mbs:15.1f} {'-':>14} {'-':>9}")


if __name__ == "__main__":
    main()
