"""Compare Firefox's decoder output (decode.mjs) with scrapy_whatwg_encoding's Encoding.decode.

Usage: /work/venv/bin/python compare_decoders.py CASEDIR FIREFOXDIR [--json REPORT]
Prints, per encoding, inputs compared and mismatches (first examples: input hex, Firefox, ours).
Exit status 1 if any mismatch.
"""
import json
import pathlib

from common import finish, run, tally
from scrapy_whatwg_encoding import get_encoding


def cps(text):
    return " ".join(format(ord(c), "x") for c in text)


def main(case_dir, ff_dir, report=None):
    summary = {}
    for case_file in sorted(pathlib.Path(case_dir).glob("*.json")):
        doc = json.loads(case_file.read_text())
        ff_file = pathlib.Path(ff_dir) / case_file.name
        if not ff_file.exists():
            print(f"{doc['encoding']}: NO FIREFOX RESULTS")
            summary[doc["encoding"]] = {"compared": 0, "error": "no firefox results"}
            continue
        enc = get_encoding(doc["encoding"])
        summary[doc["encoding"]] = tally(doc["encoding"], zip(doc["cases"], json.loads(ff_file.read_text())["results"]),
                                         lambda hx: cps(enc.decode(bytes.fromhex(hx))))
    return finish(summary, report)


if __name__ == "__main__":
    run(main, ["out/cases", "out/firefox"])
