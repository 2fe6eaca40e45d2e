"""Print the table of ``response.encoding`` names (docs/responses.rst, "The encoding name"): for
each WHATWG encoding, the name a decided response reports (the one Scrapy alone reports for it,
see ``scrapy_default.scrapy_codec_name``) and how Python's codec of that name decodes compared with
the standard's decoder: every single byte, and every two-byte sequence for the multi-byte
encodings, each decoded alone (Python with ``errors="replace"``).

    python tools/codec_name_table.py    # prints the reStructuredText table

tests/scrapy/test_drop_in.py checks that the docs carry exactly this table.
"""
from __future__ import annotations

from scrapy_whatwg_encoding import ENCODINGS, Encoding
from scrapy_whatwg_encoding.scrapy.scrapy_default import scrapy_codec_name

_MULTI_BYTE = {"GBK", "gb18030", "Big5", "EUC-JP", "Shift_JIS", "EUC-KR", "UTF-16BE", "UTF-16LE"}


def _sequences(encoding: Encoding) -> list[bytes]:
    singles = [bytes([b]) for b in range(256)]
    if encoding.name not in _MULTI_BYTE:
        return singles
    if encoding.name.startswith("UTF-16"):
        return [bytes([a, b]) for a in range(256) for b in range(256)]
    return singles + [bytes([a, b]) for a in range(0x80, 0x100) for b in range(256)]


def difference(encoding: Encoding, name: str | None) -> str:
    """How Python's codec *name* decodes compared with *encoding*'s decoder (a short phrase)."""
    if name is None:
        return "no Python codec: ``response.encoding`` is Scrapy's own inference"
    if encoding.name == "ISO-2022-JP":
        return "stateful: not compared byte by byte"
    sequences = _sequences(encoding)
    differ = sum(seq.decode(name, "replace") != encoding.decode(seq) for seq in sequences)
    unit = "bytes" if len(sequences) == 256 else "1- and 2-byte sequences"
    return "same" if differ == 0 else f"{differ} of {len(sequences)} {unit} differ"


def table() -> str:
    rows = [("Encoding (WHATWG)", "``response.encoding``", "Python's codec vs the standard")]
    for encoding in ENCODINGS.values():
        name = scrapy_codec_name(encoding)
        rows.append((encoding.name, f"``{name}``" if name else "(Scrapy's inference)", difference(encoding, name)))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    lines = [rule, "  ".join(c.ljust(w) for c, w in zip(rows[0], widths)).rstrip(), rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows[1:]]
    return "\n".join([*lines, rule])


if __name__ == "__main__":
    print(table())
