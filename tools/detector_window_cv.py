"""Choose the detector's windows by cross-validation (issue 26, item 5): held-out accuracy, not
accuracy on the pages the windows were tuned on.

Usage: python tools/detector_window_cv.py [--folds 5] [--seeds 5] [--verbose]

Pages: tests/data/corpus, declarations stripped and judged with their host URL as
tools/sniff_accuracy.py does (a page is right when ``sniff(body, url=URL)`` decodes it to the text
its true encoding gives). Whole pages hardly tell the windows apart (they hold a lot of text), so
each page also gives ``--suffixes`` - 1 more cases: the page from a ``<`` at 1/N, 2/N, ... of its
length on (real text of the page, whose first non-ASCII bytes, where the windows start, lie
elsewhere); a page's cases always share a fold (no page is trained and tested on). Candidates: every pair (``STAT_LIMIT``, ``UCHARDET_LIMIT``) of
:data:`STAT_LIMITS` × :data:`UCHARDET_LIMITS` (bytes chardetng reads, bytes uchardet reads of
them; see :mod:`scrapy_whatwg_encoding.sniffing.detect`). Each page is judged once per pair.

Cross-validation: the pages are split into ``--folds`` folds, stratified by true encoding (each
encoding's pages dealt round the folds in a shuffled order, ``--seeds`` different shuffles). For
each fold, the pair right on the most pages of the *other* folds is chosen (ties: the cheapest,
smallest ``STAT_LIMIT`` then ``UCHARDET_LIMIT``: no accuracy is traded for speed, and among
equally accurate pairs the training pages cannot tell them apart), then judged on the fold it
never saw. Prints, per pair, the pages right out of all (which is what tuning on the whole corpus
sees); then the held-out accuracy of the selection procedure (pages right in held-out folds,
summed over folds, per seed) next to that of the package's pair and of each fixed pair, and how
often each pair was chosen.
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sniff_accuracy import CORPUS, host_of, strip_declarations

from scrapy_whatwg_encoding import ENCODINGS, decode, sniff
from scrapy_whatwg_encoding.sniffing import detect as detect_module

STAT_LIMITS = (768, 1024, 1536, 2048, 3072, 4096, 8192)
UCHARDET_LIMITS = (256, 512, 1024, 2048)


def pages(corpus: pathlib.Path = CORPUS, suffixes: int = 1) -> list[tuple[str, bytes, str | None, str]]:
    """``(path, body with declarations stripped, URL or None, true encoding name)`` per case: each
    page whole, then for an ASCII-compatible true encoding its *suffixes* - 1 suffixes (see the
    module docstring; the path gets ``@offset``)."""
    found = []
    for entry in json.loads((corpus / "manifest.json").read_text("utf-8")):
        if entry["encoding"] is None:
            continue
        host = host_of(entry["path"].rsplit("/", 1)[-1])
        body = strip_declarations((corpus / entry["path"]).read_bytes())
        url = f"http://{host}/" if host else None
        found.append((entry["path"], body, url, entry["encoding"]))
        if not ENCODINGS[entry["encoding"]].is_ascii_compatible or entry["encoding"] == "UTF-8":
            continue  # a "<" may lie inside a UTF-16 or ISO-2022-JP character; UTF-8 is found whole
        for k in range(1, suffixes):
            at = body.find(b"<", k * len(body) // suffixes)
            if at > 0 and not body[at:].isascii():
                found.append((f"{entry['path']}@{at}", body[at:], url, entry["encoding"]))
    return found


def judge(corpus_pages, pair: tuple[int, int]) -> list[bool]:
    """Whether ``sniff`` gets each page's text right with the detector windows *pair*."""
    saved = detect_module.STAT_LIMIT, detect_module.UCHARDET_LIMIT
    detect_module.STAT_LIMIT, detect_module.UCHARDET_LIMIT = pair
    try:
        right = []
        for _, body, url, truth in corpus_pages:
            found = sniff(body, url=url).encoding
            right.append(decode(body, found)[0] == decode(body, ENCODINGS[truth])[0])
        return right
    finally:
        detect_module.STAT_LIMIT, detect_module.UCHARDET_LIMIT = saved


def folds_of(corpus_pages, folds: int, seed: int) -> list[int]:
    """The fold of each page: each true encoding's pages shuffled, then dealt round the folds."""
    rng = random.Random(seed)
    by_encoding: dict[str, list[str]] = collections.defaultdict(list)
    for path, _, _, encoding in corpus_pages:
        page = path.split("@")[0]
        if page not in by_encoding[encoding]:
            by_encoding[encoding].append(page)
    fold_of_page = {}
    dealt = 0
    for encoding in sorted(by_encoding):
        names = by_encoding[encoding]
        rng.shuffle(names)
        for name in names:
            fold_of_page[name] = dealt % folds
            dealt += 1
    return [fold_of_page[path.split("@")[0]] for path, _, _, _ in corpus_pages]


def cross_validate(right: dict[tuple[int, int], list[bool]], fold: list[int], folds: int
                   ) -> tuple[int, int, list[tuple[int, int]]]:
    """``(held-out pages right, held-out pages, the pair chosen for each fold)``."""
    pairs = sorted(right)  # cheapest first: ties go to it
    good = total = 0
    chosen = []
    for k in range(folds):
        train = [i for i, f in enumerate(fold) if f != k]
        test = [i for i, f in enumerate(fold) if f == k]
        best = max(pairs, key=lambda pair: (sum(right[pair][i] for i in train), -pairs.index(pair)))
        chosen.append(best)
        good += sum(right[best][i] for i in test)
        total += len(test)
    return good, total, chosen


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--suffixes", type=int, default=8, help="cases per page (1: whole pages only)")
    parser.add_argument("--verbose", action="store_true", help="list the pages some pair gets wrong")
    args = parser.parse_args(argv)
    corpus_pages = pages(suffixes=args.suffixes)
    current = (detect_module.STAT_LIMIT, detect_module.UCHARDET_LIMIT)
    right = {(s, u): judge(corpus_pages, (s, u)) for s in STAT_LIMITS for u in UCHARDET_LIMITS if u <= s}
    n = len(corpus_pages)
    print(f"{n} cases from {len({p[0].split('@')[0] for p in corpus_pages})} corpus pages, declarations stripped; package's windows: STAT_LIMIT={current[0]}, "
          f"UCHARDET_LIMIT={current[1]}")
    print("cases right (all cases, i.e. tuned on everything), STAT_LIMIT down, UCHARDET_LIMIT across:")
    print(f"  {'':>6}" + "".join(f"{u:>7}" for u in UCHARDET_LIMITS))
    for s in STAT_LIMITS:
        print(f"  {s:>6}" + "".join(f"{sum(right[(s, u)]):>7}" if (s, u) in right else f"{'':>7}"
                                     for u in UCHARDET_LIMITS))
    print(f"\n{args.folds}-fold cross-validation, stratified by true encoding, {args.seeds} shuffles:")
    times_chosen: collections.Counter = collections.Counter()
    held_out = []
    for seed in range(args.seeds):
        fold = folds_of(corpus_pages, args.folds, seed)
        good, total, chosen = cross_validate(right, fold, args.folds)
        times_chosen.update(chosen)
        held_out.append(good)
        print(f"  shuffle {seed}: chosen pairs right on {good}/{total} held-out pages; chosen: "
              + ", ".join(f"{s}/{u}" for s, u in chosen))
    fixed = {pair: sum(right[pair]) for pair in (current, (4096, 1024), (2048, 512))
             if pair in right}
    print(f"  held-out accuracy of the selection: {min(held_out)}-{max(held_out)}/{n} "
          f"({100 * sum(held_out) / len(held_out) / n:.1f}% on average)")
    for pair, good in fixed.items():
        print(f"  fixed {pair[0]}/{pair[1]}{' (package)' if pair == current else ''}: {good}/{n} "
              f"({100 * good / n:.1f}%; a fixed pair is tuned on nothing, its held-out accuracy is this)")
    print("  chosen how often (pair: folds):",
          ", ".join(f"{s}/{u}: {c}" for (s, u), c in times_chosen.most_common()))
    if args.verbose:
        for i, (path, _, url, truth) in enumerate(corpus_pages):
            wrong = [f"{s}/{u}" for (s, u), judged in sorted(right.items()) if not judged[i]]
            if wrong:
                print(f"  wrong: {path} ({truth}, {url}): {' '.join(wrong)}")


if __name__ == "__main__":
    main()
