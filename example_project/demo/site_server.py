"""A small HTTP server for a directory of pages, run inside the crawl's own Twisted reactor.

``GET /`` is an index page linking every file; ``GET /<path>`` serves the file's bytes unchanged
with a ``Content-Type`` chosen by the directory's description:

- ``pages.json`` (the bundled demo site): ``{"<path>": {"content_type": ..., "expect": ...}}``;
- ``manifest.json`` (``tests/data/corpus``): a list of ``{"path", "encoding"}``; every file is served
  as ``text/html``, with ``; charset=<encoding>`` when *charset* is ``"manifest"``;
- anything else: the type guessed from the file name, without a charset.

With ``?gzip`` the body is sent gzip-compressed (``Content-Encoding: gzip``).
``/echo`` answers with the raw request target and body (``text/plain; charset=us-ascii``), so a
spider or a test can see exactly which bytes a request carried.
"""
from __future__ import annotations

import gzip
import json
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

from twisted.web import resource, server

BUNDLED_SITE = Path(__file__).resolve().parent / "site"


@dataclass
class Page:
    path: str
    content_type: str | None
    expect: str | None = None  # the true encoding (WHATWG name), None if not known / not on the Web
    note: str = ""


@dataclass
class SiteMap:
    root: Path
    pages: dict[str, Page] = field(default_factory=dict)

    @classmethod
    def load(cls, root: str | Path, charset: str = "none") -> SiteMap:
        """Describe the directory *root*; *charset*: ``"none"`` or ``"manifest"`` (manifest sites)."""
        root = Path(root).resolve()
        site = cls(root)
        if (root / "pages.json").exists():
            for path, info in json.loads((root / "pages.json").read_text("utf-8")).items():
                site.pages[path] = Page(path, info.get("content_type"), info.get("expect"), info.get("note", ""))
        elif (root / "manifest.json").exists():
            for entry in json.loads((root / "manifest.json").read_text("utf-8")):
                content_type = "text/html"
                if charset == "manifest" and entry.get("encoding"):
                    content_type += f"; charset={entry['encoding']}"
                site.pages[entry["path"]] = Page(entry["path"], content_type, entry.get("encoding"))
        else:
            for file in sorted(p for p in root.rglob("*") if p.is_file()):
                path = file.relative_to(root).as_posix()
                site.pages[path] = Page(path, mimetypes.guess_type(path)[0])
        return site

    @property
    def has_expectations(self) -> bool:
        return (self.root / "manifest.json").exists() or (self.root / "pages.json").exists()

    def index_html(self) -> bytes:
        links = "\n".join(f'<li><a href="/{quote(path)}">{path}</a></li>' for path in self.pages)
        return (f"<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>Index</title></head>\n"
                f"<body><ul>\n{links}\n</ul></body></html>\n").encode()


class SiteResource(resource.Resource):
    isLeaf = True

    def __init__(self, site: SiteMap):
        super().__init__()
        self.site = site

    def render(self, request):
        path = request.path.decode("latin-1").lstrip("/")
        if path == "":
            request.setHeader(b"Content-Type", b"text/html; charset=utf-8")
            return self.site.index_html()
        if path == "echo":
            request.setHeader(b"Content-Type", b"text/plain; charset=us-ascii")
            return b"target: " + request.uri + b"\nbody: " + request.content.read()
        page = self.site.pages.get(unquote(path))
        if page is None:
            request.setResponseCode(404)
            request.setHeader(b"Content-Type", b"text/plain; charset=utf-8")
            return b"not found"
        if page.content_type:
            request.setHeader(b"Content-Type", page.content_type.encode("latin-1"))
        else:
            request.defaultContentType = None  # else Twisted adds text/html
        data = (self.site.root / page.path).read_bytes()
        if b"gzip" in request.uri.partition(b"?")[2].split(b"&"):  # (request.args drops a bare "?gzip")
            request.setHeader(b"Content-Encoding", b"gzip")
            data = gzip.compress(data)
        return data


def start_server(site: SiteMap, reactor=None):
    """Listen on 127.0.0.1 (a free port) in *reactor* (default: the installed one).

    Returns ``(listening_port, base_url)``; stop with ``listening_port.stopListening()``."""
    if reactor is None:
        from twisted.internet import reactor
    factory = server.Site(SiteResource(site))
    factory.noisy = False
    port = reactor.listenTCP(0, factory, interface="127.0.0.1")
    return port, f"http://127.0.0.1:{port.getHost().port}/"


def main(argv=None):
    """Serve a directory in the foreground: ``python -m demo.site_server DIR [PORT] [none|manifest]``."""
    import sys

    from twisted.internet import reactor
    args = sys.argv[1:] if argv is None else argv
    site = SiteMap.load(args[0] if args else BUNDLED_SITE, args[2] if len(args) > 2 else "none")
    factory = server.Site(SiteResource(site))
    factory.noisy = False
    port = reactor.listenTCP(int(args[1]) if len(args) > 1 else 0, factory, interface="127.0.0.1")
    print(f"http://127.0.0.1:{port.getHost().port}/", flush=True)
    reactor.run()


if __name__ == "__main__":
    main()
