"""Compare Firefox's URL-query encoding (encode.mjs) with scrapy_whatwg_encoding's Encoding.encode.

Usage: /work/venv/bin/python compare_encoders.py CASEDIR FIREFOXDIR [--json REPORT]
Our bytes are turned into the URL Standard's query serialization: an html-mode error "&#NNNN;"
becomes "%26%23NNNN%3B" ("percent-encode after encoding"), every other byte is percent-encoded
with the special-query percent-encode set. Exit status 1 if any mismatch.
"""
import json
import pathlib
import re
import sys

from scrapy_whatwg_encoding import get_encoding

ERROR = re.compile(rb"&#([0-9]+);")
SPECIAL_QUERY = set(b"\"#<>'")
ESCAPES = {b"\x1b(B": "single", b"\x1b(J": "single", b"\x1b(I": "single", b"\x1b$B": "double"}


def percent(byte):
    if byte < 0x21 or byte > 0x7E or byte in SPECIAL_QUERY:
        return "%{:02X}".format(byte)
    return chr(byte)


def serialize(data, stateful):
    out = []
    i = 0
    state = "single"
    while i < len(data):
        if stateful and data[i:i + 3] in ESCAPES:
            state = ESCAPES[data[i:i + 3]]
            out.extend(percent(b) for b in data[i:i + 3])
            i += 3
            continue
        m = ERROR.match(data, i) if state == "single" else None
        if m:
            out.append("%26%23" + m.group(1).decode() + "%3B")
            i = m.end()
            continue
        out.append(percent(data[i]))
        i += 1
    return "".join(out)


def main(case_dir, ff_dir, report=None):
    total = bad = 0
    summary = {}
    for case_file in sorted(pathlib.Path(case_dir).glob("*.json")):
        doc = json.loads(case_file.read_text())
        ff_file = pathlib.Path(ff_dir) / case_file.name
        if not ff_file.exists():
            print(f"{doc['encoding']}: NO FIREFOX RESULTS")
            continue
        ff = json.loads(ff_file.read_text())
        enc = get_encoding(doc["encoding"])
        if ff["document_charset"].lower() != enc.name.lower():
            print(f"{doc['encoding']}: document.characterSet is {ff['document_charset']}, skipped")
            summary[doc["encoding"]] = {"compared": 0, "skipped": ff["document_charset"]}
            continue
        mismatches = []
        for s, theirs in zip(doc["strings"], ff["results"]):
            try:
                ours = serialize(enc.encode(s), enc.name == "ISO-2022-JP")
            except Exception as e:
                ours = f"EXCEPTION {type(e).__name__}: {e}"
            if ours != theirs:
                mismatches.append({"input": " ".join("U+%04X" % ord(c) for c in s), "firefox": theirs, "ours": ours})
        n = min(len(doc["strings"]), len(ff["results"]))
        total += n
        bad += len(mismatches)
        summary[doc["encoding"]] = {"compared": n, "mismatches": len(mismatches), "examples": mismatches[:10]}
        print(f"{doc['encoding']:15} compared {n:7d}  mismatches {len(mismatches)}")
        for m in mismatches[:5]:
            print(f"    input {m['input']}  firefox {m['firefox']}  ours {m['ours']}")
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
    sys.exit(main(*(args or ["out/enc_cases", "out/firefox_enc"]), report=report))
