"""Compare Firefox's URL-query encoding (encode.mjs) with scrapy_whatwg_encoding's Encoding.encode.

Usage: python compare_encoders.py CASEDIR FIREFOXDIR [--json REPORT]
Our bytes are turned into the URL Standard's query serialization: an html-mode error "&#NNNN;"
becomes "%26%23NNNN%3B" ("percent-encode after encoding"), every other byte is percent-encoded
with the special-query percent-encode set. Exit status 1 if any mismatch.
"""
import re

from common import case_files, finish, run, tally

from scrapy_whatwg_encoding import get_encoding

ERROR = re.compile(rb"&#([0-9]+);")
SPECIAL_QUERY = set(b"\"#<>'")
ESCAPES = {b"\x1b(B": "single", b"\x1b(J": "single", b"\x1b(I": "single", b"\x1b$B": "double"}


def percent(byte):
    if byte < 0x21 or byte > 0x7E or byte in SPECIAL_QUERY:
        return f"%{byte:02X}"
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
    summary = {}
    for doc, ff in case_files(case_dir, ff_dir, summary):
        enc = get_encoding(doc["encoding"])
        if ff["document_charset"].lower() != enc.name.lower():
            print(f"{doc['encoding']}: document.characterSet is {ff['document_charset']}, skipped")
            summary[doc["encoding"]] = {"compared": 0, "skipped": ff["document_charset"]}
            continue
        summary[doc["encoding"]] = tally(
            doc["encoding"], zip(doc["strings"], ff["results"]),
            lambda text, enc=enc: serialize(enc.encode(text), enc.name == "ISO-2022-JP"),
            lambda text: " ".join(f"U+{ord(c):04X}" for c in text))
    return finish(summary, report)


if __name__ == "__main__":
    run(main, ["out/enc_cases", "out/firefox_enc"])
