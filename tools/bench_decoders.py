"""Benchmark: exact decoders vs CPython's nearest C codec, side by side, interleaved.

Usage: python tools/bench_decoders.py [CORPUS_DIR] [--runs N] [--repeat N] [--only NAME ...]

For each encoding, decodes the pages of tests/data/corpus whose true encoding it is (manifest.json),
one call per page as a crawl does; encodings without pages of their own get the corpus text
re-encoded into them (valid input), and single-byte encodings use every page's bytes (every byte is
valid there). Each run times ``Encoding.decode`` and ``bytes.decode(C_CODEC, "replace")`` on the
same pages, one right after the other (best of --repeat passes each), and takes their ratio
(C time / exact time: higher is better, 1.0 means as fast as the C codec). The table gives the
median ratio over --runs interleaved runs and its spread (min–max).

The second table decodes mislabeled pages (windows-1252, windows-1251 and EUC-KR pages decoded as
a CJK encoding, as a wrong label makes a crawler do): the exact decoder's time over the C codec's
(lower is better; 1.0 means as fast as C).
"""
import argparse
import json
import pathlib
import statistics
import time

from scrapy_whatwg_encoding import ENCODINGS

NEAREST = {
    "UTF-8": "utf-8", "IBM866": "cp866", "ISO-8859-8-I": "iso8859-8", "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u", "macintosh": "mac_roman", "windows-874": "cp874",
    "x-mac-cyrillic": "mac_cyrillic", "GBK": "gbk", "gb18030": "gb18030", "Big5": "big5hkscs",
    "EUC-JP": "euc_jp", "ISO-2022-JP": "iso2022_jp", "Shift_JIS": "cp932", "EUC-KR": "cp949",
    "UTF-16BE": "utf-16-be", "UTF-16LE": "utf-16-le", "x-user-defined": "cp1252",  # no C codec of its own: a charmap codec
    "replacement": "latin-1",
}
# (pages' true encoding, the CJK encoding a wrong label names)
MISLABELED = [(source, target) for source in ("windows-1252", "windows-1251", "EUC-KR")
              for target in ("Big5", "EUC-JP", "Shift_JIS", "gb18030") if source != target]


def nearest(name):
    if name in NEAREST:
        return NEAREST[name]
    if name.startswith("windows-"):
        return "cp" + name[8:]
    return name.lower().replace("iso-8859-", "iso8859-")


def best_time(fn, pages, repeat):
    """Best CPU time (s) of *repeat* passes calling fn(page) for every page (CPU time, not wall
    time: the machine is shared, and waiting for a core is not the decoder's cost)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for page in pages:
            fn(page)
        best = min(best, time.process_time() - start)
    return best


def corpus_pages(corpus):
    """true encoding name -> list of pages (bytes)."""
    pages = {}
    for entry in json.loads((corpus / "manifest.json").read_text()):
        if entry["encoding"] is not None:
            pages.setdefault(entry["encoding"], []).append((corpus / entry["path"]).read_bytes())
    return pages


def corpus_inputs(pages):
    """encoding name -> list of byte strings in that encoding."""
    texts = [ENCODINGS[name].decode(p) for name, ps in pages.items() for p in ps]
    inputs = {}
    for name, encoding in ENCODINGS.items():
        if name.startswith("UTF-16"):  # the corpus has two small UTF-16LE pages: use all its text
            inputs[name] = [t.encode(name.lower()) for t in texts]
        elif name in pages:
            inputs[name] = pages[name]
        elif name in ("replacement",):
            continue
        elif name in ("gb18030",):
            inputs[name] = pages["GBK"]
        elif name == "ISO-2022-JP":  # Japanese pages, re-encoded (the encoder is exact)
            inputs[name] = [encoding.encode(ENCODINGS["EUC-JP"].decode(p)) for p in pages["EUC-JP"]]
        elif name in ("x-user-defined",) or encoding._module == "single_byte":
            inputs[name] = [p for ps in pages.values() for p in ps]
    return inputs


def ratios(cases, runs, repeat):
    """label -> list of (C time / exact time), one per interleaved run; *cases* maps a label to
    (exact decode, C decode, pages)."""
    for exact, _, pages in cases.values():  # load tables outside the timing
        for page in pages:
            exact(page)
    result = {label: [] for label in cases}
    for run in range(runs):
        for label, (exact, c, pages) in cases.items():
            if run % 2:
                exact_time, c_time = best_time(exact, pages, repeat), best_time(c, pages, repeat)
            else:
                c_time, exact_time = best_time(c, pages, repeat), best_time(exact, pages, repeat)
            result[label].append(c_time / exact_time)
    return result


def c_decoder(c_codec):
    return lambda page: page.decode(c_codec, "replace")


def summary(values):
    return f"{statistics.median(values):6.2f} {min(values):6.2f}–{max(values):<6.2f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", default=str(pathlib.Path(__file__).resolve().parents[1]
                                                          / "tests" / "data" / "corpus"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="encoding names to run (default: all)")
    args = parser.parse_args()
    pages = corpus_pages(pathlib.Path(args.corpus))
    inputs = corpus_inputs(pages)
    cases = {name: (ENCODINGS[name].decode, c_decoder(nearest(name)), datas)
             for name, datas in inputs.items() if not args.only or name in args.only}
    print(f"Valid pages: C codec time / exact time (higher is better), median and min–max of "
          f"{args.runs} interleaved runs")
    print(f"{'encoding':16} {'C codec':12} {'pages':>5} {'KB':>6} {'ratio':>6} {'spread':13}")
    for name, values in ratios(cases, args.runs, args.repeat).items():
        datas = inputs[name]
        print(f"{name:16} {nearest(name):12} {len(datas):5} {sum(map(len, datas)) / 1e3:6.0f} "
              f"{summary(values)}")
    mislabeled = {(source, target): (ENCODINGS[target].decode, c_decoder(nearest(target)), pages[source])
                  for source, target in MISLABELED if not args.only or target in args.only}
    print(f"\nMislabeled pages: exact time / C codec time (lower is better), median and min–max of "
          f"{args.runs} interleaved runs")
    print(f"{'pages':14} {'decoded as':12} {'C codec':12} {'× C':>6} {'spread':13}")
    for (source, target), values in ratios(mislabeled, args.runs, args.repeat).items():
        slow = [1 / v for v in values]
        print(f"{source:14} {target:12} {nearest(target):12} {summary(slow)}")


if __name__ == "__main__":
    main()
