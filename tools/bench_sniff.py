"""Benchmark: ``sniff`` + decode per page vs Scrapy's ``.encoding`` + ``.text``, side by side.

Usage: python tools/bench_sniff.py [CORPUS_DIR] [--repeat N] [--detector full|browser|off]

Pages: tests/data/corpus (manifest.json), in two sets —
- "as served": the files as they are (their ``<meta>`` / XML declarations intact), no header;
- "unlabeled": the same files with the declarations stripped (as in tools/sniff_accuracy.py);
- "html meta": each stripped file as the body of an HTML page whose head has a few tags and a
  ``<meta charset>`` naming its true encoding (the prescan + parser-step path of most pages).
Pages whose true encoding the Web platform lacks are left out.

For each page and set, the best of N interleaved runs of
- ours:   ``d = sniff(body, detector=...)`` then ``decode(body, d.encoding)``;
- scrapy: ``r.encoding`` then ``r.text`` on a fresh ``HtmlResponse`` built outside the timer.
Prints total time per set and the ratio ours / scrapy (lower is better; 1.0 = as fast), plus the
median of per-page ratios, then the two ratios issue 11 sets goals for, from the same run:
"unlabeled" (goal ≤ 0.35x) and "labeled" = the pages as served (goal ≤ 0.2x).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

from scrapy.http import HtmlResponse

from scrapy_whatwg_encoding import decode, sniff

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sniff_accuracy import CORPUS, strip_declarations

URL = "http://corpus.invalid/"
HEAD = (b'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta name="viewport" content="width=device-width">\n'
        b'<link rel="stylesheet" href="/style.css">\n<meta charset="%s">\n<title>Page</title>\n</head>\n<body>\n')


def time_ours(body: bytes, detector: str) -> float:
    start = time.perf_counter()
    decision = sniff(body, detector=detector)
    decode(body, decision.encoding)
    return time.perf_counter() - start


def time_scrapy(body: bytes) -> float:
    response = HtmlResponse(URL, body=body)
    start = time.perf_counter()
    _ = response.encoding
    _ = response.text
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=pathlib.Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--detector", default="full", choices=["off", "browser", "full"])
    args = parser.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text())
    entries = [e for e in manifest if e["encoding"] is not None]
    pages = [(args.corpus / e["path"]).read_bytes() for e in entries]
    unlabeled = [strip_declarations(p) for p in pages]
    html = [HEAD % e["encoding"].encode() + p + b"</body></html>" for e, p in zip(entries, unlabeled)]
    sets = {"as served": pages, "unlabeled": unlabeled, "html meta": html}
    for body in pages[:20]:  # warm up: load tables, compile regexes
        time_ours(body, args.detector)
        time_scrapy(body)
    print(f"{len(pages)} pages, {sum(map(len, pages)) / 1e6:.1f} MB, best of {args.repeat}, detector={args.detector!r}")
    print(f"{'set':<12}{'ours (ms)':>12}{'scrapy (ms)':>13}{'ratio':>8}{'median page ratio':>20}")
    ratios = {}
    for name, bodies in sets.items():
        ours, scrapy = [], []
        for body in bodies:  # interleaved, so both sides see the same machine load
            best_ours = best_scrapy = float("inf")
            for _ in range(args.repeat):
                best_ours = min(best_ours, time_ours(body, args.detector))
                best_scrapy = min(best_scrapy, time_scrapy(body))
            ours.append(best_ours)
            scrapy.append(best_scrapy)
        ratio = ratios[name] = sum(ours) / sum(scrapy)
        median = statistics.median(o / s for o, s in zip(ours, scrapy))
        print(f"{name:<12}{1e3 * sum(ours):>12.1f}{1e3 * sum(scrapy):>13.1f}{ratio:>7.2f}x{median:>19.2f}x")
    print(f"issue 11 goals, ours / scrapy: unlabeled {ratios['unlabeled']:.2f}x (goal <= 0.35x), "
          f"labeled (as served) {ratios['as served']:.2f}x (goal <= 0.2x)")


if __name__ == "__main__":
    main()
