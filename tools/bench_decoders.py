"""Benchmark: exact decoders vs CPython's nearest C codec, side by side in one run.

Usage: python tools/bench_decoders.py [CORPUS_DIR] [--repeat N]

For each encoding, decodes the pages of tests/data/corpus whose true encoding it is (manifest.json);
encodings without pages of their own get the corpus text re-encoded into them (valid input), and
single-byte encodings use every page's bytes (every byte is valid there). Prints throughput of
``Encoding.decode`` and of ``bytes.decode(C_CODEC, "replace")`` and their ratio (exact / C);
higher is better, 1.0 means as fast as the C codec. Also prints the ratio on invalid input
(random bytes), which is exact but not tuned.
"""
import argparse
import json
import pathlib
import random
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


def nearest(name):
    if name in NEAREST:
        return NEAREST[name]
    if name.startswith("windows-"):
        return "cp" + name[8:]
    return name.lower().replace("iso-8859-", "iso8859-")


def best_time(fn, data, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(data)
        best = min(best, time.perf_counter() - start)
    return best


def corpus_inputs(corpus):
    """encoding name -> list of byte strings in that encoding."""
    manifest = json.loads((corpus / "manifest.json").read_text())
    pages, texts = {}, []
    for entry in manifest:
        if entry["encoding"] is None:
            continue
        data = (corpus / entry["path"]).read_bytes()
        pages.setdefault(entry["encoding"], []).append(data)
        texts.append(ENCODINGS[entry["encoding"]].decode(data))
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("corpus", nargs="?", default=str(pathlib.Path(__file__).resolve().parents[1]
                                                          / "tests" / "data" / "corpus"))
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    inputs = corpus_inputs(pathlib.Path(args.corpus))
    rng = random.Random(0)
    garbage = bytes(rng.randrange(256) for _ in range(200_000))
    print(f"{'encoding':16} {'C codec':12} {'MB':>6} {'exact MB/s':>10} {'C MB/s':>8} "
          f"{'ratio':>6} {'invalid ratio':>13}")
    for name, datas in inputs.items():
        data = b"".join(datas)
        encoding, c_codec = ENCODINGS[name], nearest(name)
        encoding.decode(data)  # load tables outside the timing
        exact = best_time(encoding.decode, data, args.repeat)
        c = best_time(lambda d, c_codec=c_codec: d.decode(c_codec, "replace"), data, args.repeat)
        bad_exact = best_time(encoding.decode, garbage, 1)
        bad_c = best_time(lambda d, c_codec=c_codec: d.decode(c_codec, "replace"), garbage, 1)
        mb = len(data) / 1e6
        print(f"{name:16} {c_codec:12} {mb:6.2f} {mb / exact:10.1f} {mb / c:8.1f} "
              f"{c / exact:6.2f} {bad_c / bad_exact:13.2f}")


if __name__ == "__main__":
    main()
