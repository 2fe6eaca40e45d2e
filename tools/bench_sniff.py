"""Benchmark: the middleware's sniff + decode per page vs Scrapy's ``.encoding`` + ``.text``, side by side.

Usage: python tools/bench_sniff.py [CORPUS_DIR] [--repeat N] [--runs N] [--detector full|browser|off]
                                   [--by-encoding]

Pages: tests/data/corpus (manifest.json), in four sets —
- "as served": the files as they are (their ``<meta>`` / XML declarations intact), no header.
  Most carry a label (an XML declaration); some have none and go to the detector, on both sides.
  Both subsets are printed too ("  with label", "  no label", by our decision's source);
- "unlabeled": the same files with the declarations stripped (as in tools/sniff_accuracy.py);
- "html meta": each stripped file as the body of an HTML page whose head has a few tags and a
  ``<meta charset>`` naming its true encoding (the prescan + parser-step path of most pages);
- "http charset": each stripped file served with ``Content-Type: text/html; charset=<true
  encoding>`` (the transport layer label: Scrapy's cheapest path).
Pages whose true encoding the Web platform lacks are left out.

For each page and set, the best of ``--repeat`` interleaved runs of
- ours:   what ``WhatwgEncodingMiddleware`` does for the text: ``sniffing.decide.decide``
  (the sniffing steps and the mislabel check of issue 11 over one ``Body``), then the text,
  decoded only if a step did not already decode it;
- scrapy: ``r.encoding`` then ``r.text`` on a fresh ``HtmlResponse`` built outside the timer.
Prints total time per set and the ratio ours / scrapy (lower is better; 1.0 = as fast), plus the
median of per-page ratios; the whole measurement is done ``--runs`` times and the last lines give
the median over runs of the two ratios issue 11 sets goals for: "unlabeled" (goal ≤ 0.35x) and
"labeled" = the pages as served (goal ≤ 0.2x). ``--by-encoding`` adds a table per true encoding
(as served, last run).
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import statistics
import sys
import time

from scrapy.http import HtmlResponse

from scrapy_whatwg_encoding import sniff
from scrapy_whatwg_encoding.sniffing.decide import decide
from scrapy_whatwg_encoding.sniffing.mislabel import LABEL_SOURCES

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sniff_accuracy import CORPUS, strip_declarations

URL = "http://corpus.invalid/"
HEAD = (b'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta name="viewport" content="width=device-width">\n'
        b'<link rel="stylesheet" href="/style.css">\n<meta charset="%s">\n<title>Page</title>\n</head>\n<body>\n')
GOALS = {"unlabeled": 0.35, "as served": 0.2}


def time_ours(body: bytes, content_type: str | None, detector: str) -> float:
    start = time.perf_counter()
    outcome = decide(body, content_type=content_type, url=URL, detector=detector)
    outcome.body.text(outcome.decision.encoding)
    return time.perf_counter() - start


def time_scrapy(body: bytes, content_type: str | None) -> float:
    headers = {"Content-Type": content_type} if content_type else None
    response = HtmlResponse(URL, body=body, headers=headers)
    start = time.perf_counter()
    _ = response.encoding
    _ = response.text
    return time.perf_counter() - start


def measure(pages, content_types, repeat: int, detector: str) -> tuple[list[float], list[float]]:
    ours, scrapy = [], []
    for body, content_type in zip(pages, content_types):  # interleaved: both see the same load
        best_ours = best_scrapy = float("inf")
        for _ in range(repeat):
            best_ours = min(best_ours, time_ours(body, content_type, detector))
            best_scrapy = min(best_scrapy, time_scrapy(body, content_type))
        ours.append(best_ours)
        scrapy.append(best_scrapy)
    return ours, scrapy


def row(name: str, ours: list[float], scrapy: list[float]) -> float:
    ratio = sum(ours) / sum(scrapy)
    median = statistics.median(o / s for o, s in zip(ours, scrapy))
    print(f"{name:<15}{len(ours):>6}{1e3 * sum(ours):>11.1f}{1e3 * sum(scrapy):>13.1f}"
          f"{ratio:>8.2f}x{median:>19.2f}x")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=pathlib.Path, default=CORPUS)
    parser.add_argument("--repeat", type=int, default=5, help="timings per page and side (best kept)")
    parser.add_argument("--runs", type=int, default=3, help="whole measurements (median ratio kept)")
    parser.add_argument("--detector", default="full", choices=["off", "browser", "full"])
    parser.add_argument("--by-encoding", action="store_true", help="a table per true encoding (as served)")
    args = parser.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text())
    entries = [e for e in manifest if e["encoding"] is not None]
    pages = [(args.corpus / e["path"]).read_bytes() for e in entries]
    unlabeled = [strip_declarations(p) for p in pages]
    html = [HEAD % e["encoding"].encode() + p + b"</body></html>" for e, p in zip(entries, unlabeled)]
    no_header = [None] * len(pages)
    sets = {"as served": (pages, no_header), "unlabeled": (unlabeled, no_header), "html meta": (html, no_header),
            "http charset": (unlabeled, [f"text/html; charset={e['encoding']}" for e in entries])}
    labeled = [sniff(p, url=URL, detector=args.detector).source in LABEL_SOURCES for p in pages]
    for body in pages[:20]:  # warm up: load tables, compile regexes
        time_ours(body, None, args.detector)
        time_scrapy(body, None)
    print(f"{len(pages)} pages, {sum(map(len, pages)) / 1e6:.1f} MB, best of {args.repeat} per page, "
          f"{args.runs} runs, detector={args.detector!r}; ours = sniff + mislabel check + decode")
    ratios: dict[str, list[float]] = collections.defaultdict(list)
    for run in range(1, args.runs + 1):
        print(f"run {run}\n{'set':<15}{'pages':>6}{'ours (ms)':>11}{'scrapy (ms)':>13}{'ratio':>9}"
              f"{'median page ratio':>20}")
        for name, (bodies, content_types) in sets.items():
            ours, scrapy = measure(bodies, content_types, args.repeat, args.detector)
            ratios[name].append(row(name, ours, scrapy))
            if name == "as served":
                for sub, keep in (("  with label", True), ("  no label", False)):
                    chosen = [i for i, is_labeled in enumerate(labeled) if is_labeled is keep]
                    ratios[sub].append(row(sub, [ours[i] for i in chosen], [scrapy[i] for i in chosen]))
                served = ours, scrapy
    if args.by_encoding:
        print(f"as served, by true encoding (run {args.runs})\n{'encoding':<15}{'pages':>6}{'ours (ms)':>11}"
              f"{'scrapy (ms)':>13}{'ratio':>9}{'median page ratio':>20}")
        by_encoding = collections.defaultdict(list)
        for i, entry in enumerate(entries):
            by_encoding[entry["encoding"]].append(i)
        for encoding, chosen in sorted(by_encoding.items(), key=lambda item: -sum(served[1][i] for i in item[1])):
            row(encoding, [served[0][i] for i in chosen], [served[1][i] for i in chosen])
    print(f"median over {args.runs} runs, ours / scrapy: "
          + ", ".join(f"{name.strip()} {statistics.median(values):.2f}x" for name, values in ratios.items()))
    for name, goal in GOALS.items():
        ratio = statistics.median(ratios[name])
        label = "labeled (as served)" if name == "as served" else name
        print(f"issue 11: {label:<20} {ratio:.2f}x  goal <= {goal}x  {'met' if ratio <= goal else 'NOT met'}")


if __name__ == "__main__":
    main()
