"""Extract the expected encoding of every web-platform-tests byte-stream page in tests/data/wpt/
into tests/data/wpt-expectations/byte-stream.json (run once; the JSON is committed).

How each test states its expectation, read from the pages themselves:

- ``html/syntax/xmldecl/xmldecl-*.html``: ``<div class="ENCODING">`` around ``<iframe src=...>``;
  ``support/test_support.js`` asserts ``document.characterSet`` of each frame equals the class.
  The frames' parent declares windows-1252 (recorded as ``parent``). ``support/trickle.py`` is
  a server script: its body is the bytes it writes (recorded as ``body``).
- ``html/syntax/parsing-html-fragments/the-input-byte-stream-*.html``: ``#box`` is 100px wide when
  its class (decoded with the page's encoding) matches the selector of the linked UTF-8
  stylesheet; exactly one of the 40 encodings makes them agree (recorded as ``expected``, and the
  selector's class as ``box_class``).
- ``encoding/bom-handling.html``: ``document.characterSet`` is ``utf-8``; ``encoding/sniffing.html``:
  ``windows-1252`` (``assert_equals(document.characterSet, ...)``).

WPT serves ``.html``/``.htm`` as ``text/html``; a ``.headers`` file gives the Content-Type.

    python tools/wpt_byte_stream_pages.py
"""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from scrapy_whatwg_encoding import ENCODINGS, decode, get_encoding

REPO = Path(__file__).resolve().parents[1]
WPT = REPO / "tests" / "data" / "wpt"
OUT = REPO / "tests" / "data" / "wpt-expectations" / "byte-stream.json"
FRAGMENTS = "html/syntax/parsing-html-fragments"


def content_type(path: Path) -> str:
    headers = path.with_name(path.name + ".headers")
    if headers.exists():
        for line in headers.read_text("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-type":
                return value.strip()
    return "text/html"


def trickle_body(path: Path) -> bytes:
    """The bytes ``trickle.py`` writes: its bytes literals, in order (the loop writes the first
    one byte by byte)."""
    tree = ast.parse(path.read_text("utf-8"))
    return b"".join(node.value for node in ast.walk(tree)
                    if isinstance(node, ast.Constant) and isinstance(node.value, bytes))


def xmldecl_pages() -> list[dict]:
    pages = []
    for test in sorted((WPT / "html/syntax/xmldecl").glob("xmldecl-*.html")):
        text = test.read_text("utf-8")
        parent = re.search(r'<meta charset="([^"]+)">', text).group(1)
        for div in re.finditer(r'<div class="([^"]+)">(.*?)</div>', text, re.DOTALL):
            for src in re.findall(r'<iframe src="([^"]+)">', div.group(2)):
                path = test.parent / src
                page = {"test": f"html/syntax/xmldecl/{test.name}", "page": path.relative_to(WPT).as_posix(),
                        "expected": div.group(1), "parent": parent}
                if path.suffix == ".py":
                    page["content_type"] = "text/html"
                    page["body"] = trickle_body(path).decode("latin-1")
                else:
                    page["content_type"] = content_type(path)
                pages.append(page)
    return pages


def _css_class(css: str) -> str:
    return re.search(r"\.test div(?:#box)?\.([^ {]+)", css).group(1)


def byte_stream_pages() -> list[dict]:
    pages = []
    for path in sorted((WPT / FRAGMENTS).glob("the-input-byte-stream-*.html")):
        body = path.read_bytes()
        text = decode(body, ENCODINGS["windows-1252"])[0]  # BOM-decoded for the UTF-16 pages
        stylesheet = re.search(r'href="(support/encodingtests-[^"]+\.css)"', text).group(1)
        box_class = _css_class((path.parent / stylesheet).read_text("utf-8"))
        matching = sorted(name for name, encoding in ENCODINGS.items()
                          if _box_class(encoding.decode(body)) == box_class)
        assert len(matching) == 1, (path.name, matching)
        expected = matching[0]
        pages.append({"test": f"{FRAGMENTS}/{path.name}", "page": f"{FRAGMENTS}/{path.name}",
                      "content_type": content_type(path), "expected": expected,
                      "box_class": box_class})
    return pages


def _box_class(text: str) -> str | None:
    found = re.search(r"id='box' class='([^']*)'", text)
    return found.group(1) if found else None


def encoding_pages() -> list[dict]:
    pages = []
    for name in ("bom-handling.html", "sniffing.html"):
        path = WPT / "encoding" / name
        found = re.search(r"assert_equals\(document\.characterSet(?:\.toLowerCase\(\))?, \"([^\"]+)\"\)",
                          path.read_text("utf-8", "replace"))
        expected = get_encoding(found.group(1))
        pages.append({"test": f"encoding/{name}", "page": f"encoding/{name}",
                      "content_type": content_type(path), "expected": expected.name})
    return pages


def main() -> None:
    pages = byte_stream_pages() + encoding_pages() + xmldecl_pages()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(pages, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{len(pages)} pages -> {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
