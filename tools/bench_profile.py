"""The browsers profile's cost against the standard profile, side by side, on the differential
grammar's documents (tools/differential/grammar.py, seed 18): interleaved rounds, median and
spread of the time per document and of the ratio.

    python tools/bench_profile.py [--count 2000] [--rounds 5]
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "differential"))

import grammar

from scrapy_whatwg_encoding import sniff


def _run(documents, **options) -> float:
    start = time.perf_counter()
    for content_type, body in documents:
        sniff(body, content_type=content_type, **options)
    return (time.perf_counter() - start) / len(documents)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    documents = [(ct, body) for _, _, ct, body in grammar.documents(18, args.count)]
    standard, browsers = [], []
    for _ in range(args.rounds):  # interleaved: the machine's load hits both alike
        standard.append(_run(documents, detector="browser"))
        browsers.append(_run(documents, profile="browsers"))
    ratios = [b / s for s, b in zip(standard, browsers)]
    for name, times in (("standard (detector browser)", standard), ("browsers", browsers)):
        print(f"{name:28} median {statistics.median(times) * 1e6:8.1f} µs/document "
              f"(min {min(times) * 1e6:.1f}, max {max(times) * 1e6:.1f})")
    print(f"ratio browsers/standard: median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
