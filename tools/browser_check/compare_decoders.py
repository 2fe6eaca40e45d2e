"""Compare Firefox's decoder output (decode.mjs) with scrapy_whatwg_encoding's Encoding.decode.

Usage: /work/venv/bin/python compare_decoders.py CASEDIR FIREFOXDIR [--json REPORT]
Prints, per encoding, inputs compared and mismatches (first examples: input hex, Firefox, ours).
Exit status 1 if any mismatch.
"""
import json
import pathlib
import sys

from scrapy_whatwg_encoding import get_encoding


def cps(text):
    return " ".join(format(ord(c), "x") for c in text)


def main(case_dir, ff_dir, report=None):
    total = bad = 0
    summary = {}
    for case_file in sorted(pathlib.Path(case_dir).glob("*.json")):
        doc = json.loads(case_file.read_text())
        ff_file = pathlib.Path(ff_dir) / case_file.name
        if not ff_file.exists():
            print(f"{doc['encoding']}: NO FIREFOX RESULTS")
            summary[doc["encoding"]] = {"compared": 0, "error": "no firefox results"}
            continue
        ff = json.loads(ff_file.read_text())["results"]
        enc = get_encoding(doc["encoding"])
        mismatches = []
        for hx, theirs in zip(doc["cases"], ff):
            try:
                ours = cps(enc.decode(bytes.fromhex(hx)))
            except Exception as e:  # report, don't stop
                ours = f"EXCEPTION {type(e).__name__}: {e}"
            if ours != theirs:
                mismatches.append({"input": hx, "firefox": theirs, "ours": ours})
        n = min(len(doc["cases"]), len(ff))
        total += n
        bad += len(mismatches)
        summary[doc["encoding"]] = {"compared": n, "mismatches": len(mismatches), "examples": mismatches[:10]}
        print(f"{doc['encoding']:15} compared {n:7d}  mismatches {len(mismatches)}")
        for m in mismatches[:5]:
            print(f"    input {m['input']}  firefox [{m['firefox']}]  ours [{m['ours']}]")
    print(f"TOTAL compared {total}, mismatches {bad}")
    if report:
        pathlib.Path(report).write_text(json.dumps(summary, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    report = None
    if "--json" in args:
        i = args.index("--json")
        report = args[i + 1]
        del args[i:i + 2]
    sys.exit(main(*(args or ["out/cases", "out/firefox"]), report=report))
