"""The browsers profile's cost against the standard profile, side by side (issue 27).

    python tools/bench_profile.py [--count 2000] [--rounds 5]          # the differential grammar's documents
    python tools/bench_profile.py --classes [--runs 5] [--repeat 5] [--only d] [--detector browser|full]

Without ``--classes``: the differential grammar's documents (tools/differential/grammar.py, seed
18), ``sniff()`` in each profile on each document, best of ``--repeat`` calls, the two profiles
alternating (tools/bench_classes.py's ``alternate``), ``--rounds`` rounds: µs per document of each,
the median over documents of the per-document ratio browsers / standard with its quartiles, and
the ratio of the totals (median, min, max over rounds).

With ``--classes``: the real pages of tools/bench_classes.py's classes a-g (built by its
``build_class``), ``sniff()`` in each profile on each page, best of ``--repeat`` calls per page
and run, the two profiles alternating call by call, ``--runs`` runs. Per class: µs per page of
each profile (median of runs), the median over pages of the per-page ratio browsers / standard
(each side its median over runs), the class totals' ratio (median of runs), and the slowest page of at most 64 KiB
in the browsers profile (ms). The standard profile runs with detector ``--detector`` (default
``"browser"``, the browsers profile's own, so that the ratio is the profile's cost alone).
"""
from __future__ import annotations

import argparse
import pathlib
import statistics
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "differential"))
sys.path.insert(0, str(HERE))

import bench_classes
import grammar

from scrapy_whatwg_encoding import sniff


def _pair(content_type, body, url, first: int, repeat: int, detector: str) -> tuple[int, int]:
    """(standard ns, browsers ns) for one document: best of *repeat*, alternating (bench_classes)."""
    def side(**options):
        return lambda: lambda: sniff(body, content_type=content_type, url=url, **options)

    return bench_classes.alternate((side(detector=detector), side(profile="browsers")), repeat, first)


def grammar_mode(count: int, rounds: int, repeat: int) -> None:
    documents = [(ct, body) for _, _, ct, body in grammar.documents(18, count)]
    pairs = [[_pair(ct, body, None, r + i, repeat, "browser") for i, (ct, body) in enumerate(documents)]
             for r in range(rounds)]  # interleaved: the machine's load hits both alike
    s = bench_classes.summarize(pairs)
    print(f"{len(documents)} grammar documents, {rounds} rounds × best of {repeat}: standard (detector browser) "
          f"{s['scrapy_us']:.1f} µs, browsers {s['ours_us']:.1f} µs per document")
    print(f"ratio browsers/standard: per document, median {s['page_ratio']:.2f} (q1-q3 {s['page_q1']:.2f}-"
          f"{s['page_q3']:.2f}); totals {s['ratio']:.2f} (min {s['low']:.2f}, max {s['high']:.2f})")


def classes_mode(runs: int, repeat: int, only, detector: str) -> None:
    native = bench_classes.sources()
    classes = {cls: bench_classes.build_class(cls, native) for cls in (only or bench_classes.CLASSES)}
    times: dict[str, list[list[tuple[int, int]]]] = {cls: [] for cls in classes}
    for cls, pages in classes.items():  # warm: tables, caches, lazy imports
        for page in pages:
            _pair(page.content_type, page.body, page.url, 0, 1, detector)
    for run in range(runs):
        for cls, pages in classes.items():
            times[cls].append([_pair(page.content_type, page.body, page.url, run + i, repeat, detector)
                               for i, page in enumerate(pages)])
    print(f"sniff() per page, browsers profile vs standard (detector {detector!r}); {runs} interleaved runs "
          f"× best of {repeat}")
    print(f"  {'class':<27} {'pages':>5} {'std µs':>8} {'brw µs':>8} {'per-page':>8} {'total':>6} {'max ms':>7}  slowest")
    for cls, pages in classes.items():
        s = bench_classes.summarize(times[cls])
        brw = [statistics.median(run[i][1] for run in times[cls]) for i in range(len(pages))]
        small = [i for i in range(len(pages)) if len(pages[i].body) <= 65536]
        worst = max(small, key=lambda i: brw[i]) if small else None
        slowest = f"{pages[worst].name} ({len(pages[worst].body)} B)" if worst is not None else "-"
        print(f"  {cls}. {bench_classes.CLASSES[cls]:<24} {len(pages):>5} {s['scrapy_us']:>8.1f} {s['ours_us']:>8.1f} "
              f"{s['page_ratio']:>8.2f} {s['ratio']:>6.2f} {brw[worst] / 1e6 if worst is not None else 0:>7.3f}  {slowest}")


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
        grammar_mode(args.count, args.rounds, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
