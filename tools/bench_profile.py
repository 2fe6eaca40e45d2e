"""The browsers profile's cost against the standard profile, side by side (issue 27).

    python tools/bench_profile.py [--count 2000] [--rounds 5]          # the differential grammar's documents
    python tools/bench_profile.py --classes [--runs 5] [--repeat 5] [--only d] [--detector browser|full]

Without ``--classes``: the differential grammar's documents (tools/differential/grammar.py, seed
18), interleaved rounds, median and spread of the time per document and of the ratio.

With ``--classes``: the real pages of tools/bench_classes.py's classes a-g (built by its
``build_class``), ``sniff()`` in each profile on each page, best of ``--repeat`` calls per page
and run, the two profiles alternating call by call, ``--runs`` runs. Per class: µs per page of
each profile (median of runs), the median over pages of the per-page ratio browsers / standard
(each side its median over runs), the class total's ratio, and the slowest page of at most 64 KiB
in the browsers profile (ms). The standard profile runs with detector ``--detector`` (default
``"browser"``, the browsers profile's own, so that the ratio is the profile's cost alone).
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "differential"))
sys.path.insert(0, str(HERE))

import grammar

from scrapy_whatwg_encoding import sniff


def _run(documents, **options) -> float:
    start = time.perf_counter()
    for content_type, body in documents:
        sniff(body, content_type=content_type, **options)
    return (time.perf_counter() - start) / len(documents)


def grammar_mode(count: int, rounds: int) -> None:
    documents = [(ct, body) for _, _, ct, body in grammar.documents(18, count)]
    standard, browsers = [], []
    for _ in range(rounds):  # interleaved: the machine's load hits both alike
        standard.append(_run(documents, detector="browser"))
        browsers.append(_run(documents, profile="browsers"))
    ratios = [b / s for s, b in zip(standard, browsers)]
    for name, times in (("standard (detector browser)", standard), ("browsers", browsers)):
        print(f"{name:28} median {statistics.median(times) * 1e6:8.1f} µs/document "
              f"(min {min(times) * 1e6:.1f}, max {max(times) * 1e6:.1f})")
    print(f"ratio browsers/standard: median {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")


def _best_pair(page, repeat: int, first: int, detector: str) -> tuple[int, int]:
    clock = time.perf_counter_ns
    best = [sys.maxsize, sys.maxsize]
    options = ({"detector": detector}, {"profile": "browsers"})
    for i in range(repeat):
        for side in ((0, 1) if (first + i) % 2 == 0 else (1, 0)):
            start = clock()
            sniff(page.body, content_type=page.content_type, url=page.url, **options[side])
            best[side] = min(best[side], clock() - start)
    return best[0], best[1]


def classes_mode(runs: int, repeat: int, only, detector: str) -> None:
    import bench_classes

    native = bench_classes.sources()
    classes = {cls: bench_classes.build_class(cls, native) for cls in (only or bench_classes.CLASSES)}
    times: dict[str, list[list[tuple[int, int]]]] = {cls: [] for cls in classes}
    for cls, pages in classes.items():  # warm: tables, caches, lazy imports
        for page in pages:
            _best_pair(page, 1, 0, detector)
    for run in range(runs):
        for cls, pages in classes.items():
            times[cls].append([_best_pair(page, repeat, run + i, detector) for i, page in enumerate(pages)])
    print(f"sniff() per page, browsers profile vs standard (detector {detector!r}); {runs} interleaved runs "
          f"× best of {repeat}")
    print(f"  {'class':<27} {'pages':>5} {'std µs':>8} {'brw µs':>8} {'per-page':>8} {'total':>6} {'max ms':>7}  slowest")
    for cls, pages in classes.items():
        runs_ = times[cls]
        n = len(pages)
        std = [statistics.median(run[i][0] for run in runs_) for i in range(n)]
        brw = [statistics.median(run[i][1] for run in runs_) for i in range(n)]
        per_page = statistics.median(b / s for s, b in zip(std, brw))
        small = [i for i in range(n) if len(pages[i].body) <= 65536]
        worst = max(small, key=lambda i: brw[i]) if small else None
        slowest = f"{pages[worst].name} ({len(pages[worst].body)} B)" if worst is not None else "-"
        print(f"  {cls}. {bench_classes.CLASSES[cls]:<24} {n:>5} {sum(std) / n / 1000:>8.1f} {sum(brw) / n / 1000:>8.1f} "
              f"{per_page:>8.2f} {sum(brw) / sum(std):>6.2f} {brw[worst] / 1e6 if worst is not None else 0:>7.3f}  {slowest}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--classes", action="store_true", help="tools/bench_classes.py's real pages, per class")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", action="append", help="with --classes: a class (repeatable)")
    parser.add_argument("--detector", default="browser", choices=("browser", "full", "off"),
                        help="with --classes: the standard profile's detector")
    args = parser.parse_args(argv)
    if args.classes:
        classes_mode(args.runs, args.repeat, args.only, args.detector)
    else:
        grammar_mode(args.count, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
