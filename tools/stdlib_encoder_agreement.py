"""How far CPython's codecs agree with the WHATWG encoders: why a portable request gets ``utf-8``.

Usage: python tools/stdlib_encoder_agreement.py [NAME ...]

For each encoding with an encoder, the candidates are the CPython codecs that its own labels
resolve to (``codecs.lookup(label)``: "sjis" -> shift_jis, "ms932" -> cp932, ...). Each non-ASCII
code point of the BMP (surrogates excluded) is encoded alone by the WHATWG encoder and by the
candidate in strict mode; the table counts the code points the WHATWG encoder represents, and
for each candidate how many of those it raises on, how many it writes other bytes for, and how
many it encodes that the WHATWG encoder writes as ``&#N;``. Single characters only: stateful
ISO-2022-JP is compared on each character's full output (escapes included).
"""
from __future__ import annotations

import codecs
import json
import pathlib
import sys

from scrapy_whatwg_encoding import ENCODINGS

ROOT = pathlib.Path(__file__).resolve().parents[1]
LABELS = {entry["name"]: entry["labels"] for group in json.loads(
    (ROOT / "tests" / "data" / "whatwg-encoding" / "encodings.json").read_text("utf-8"))
    for entry in group["encodings"]}
NO_ENCODER = {"replacement", "UTF-16BE", "UTF-16LE", "UTF-8"}


def candidates(name: str) -> list[str]:
    found = set()
    for label in LABELS[name]:
        try:
            found.add(codecs.lookup(label).name)
        except LookupError:
            continue
    return sorted(found)


def compare(name: str) -> list[str]:
    encoding = ENCODINGS[name]
    chars = [chr(cp) for cp in range(0x80, 0x10000) if not 0xD800 <= cp < 0xE000]
    ours = {c: b for c in chars if (b := encoding.encode(c)) != b"&#%d;" % ord(c)}
    lines = [f"{name}: {len(ours)} non-ASCII BMP characters encoded"]
    for codec in candidates(name) or ["(no CPython codec among its labels)"]:
        if codec.startswith("("):
            lines.append(f"  {codec}")
            continue
        raises = other = extra = 0
        for c in chars:
            try:
                theirs = c.encode(codec)
            except UnicodeEncodeError:
                theirs = None
            if c in ours:
                raises += theirs is None
                other += theirs is not None and theirs != ours[c]
            else:
                extra += theirs is not None
        lines.append(f"  {codec:12} raises on {raises}, other bytes for {other}, encodes {extra} it writes as &#N;")
    return lines


def main(names: list[str]) -> None:
    for name in names or [n for n in ENCODINGS if n not in NO_ENCODER]:
        print("\n".join(compare(name)))


if __name__ == "__main__":
    main(sys.argv[1:])
