"""Compare Firefox's decoder output (decode.mjs) with scrapy_whatwg_encoding's Encoding.decode.

Usage: python compare_decoders.py CASEDIR FIREFOXDIR [--json REPORT]
Prints, per encoding, inputs compared and mismatches (first examples: input hex, Firefox, ours).
Exit status 1 if any mismatch.
"""
from common import case_files, finish, run, tally

from scrapy_whatwg_encoding import get_encoding


def cps(text):
    return " ".join(format(ord(c), "x") for c in text)


def main(case_dir, ff_dir, report=None):
    summary = {}
    for doc, ff in case_files(case_dir, ff_dir, summary):
        enc = get_encoding(doc["encoding"])
        summary[doc["encoding"]] = tally(doc["encoding"], zip(doc["cases"], ff["results"]),
                                         lambda hx, enc=enc: cps(enc.decode(bytes.fromhex(hx))))
    return finish(summary, report)


if __name__ == "__main__":
    run(main, ["out/cases", "out/firefox"])
