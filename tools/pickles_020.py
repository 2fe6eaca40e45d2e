"""Make tests/data/pickles-0.2.0/: responses pickled by release 0.2.0 (issue 37, item 5).

Run it with 0.2.0 on the path (the release is the merge commit bc1135c, "Merge branch 'release'";
its pyproject.toml says version 0.2.0) and cloudpickle installed, once with each Scrapy whose
response layout the tests meet (a pickle holds Scrapy's private attributes: 2.11 keeps them in the
instance's ``__dict__``, 2.19 in slots of other names, so each Scrapy reads only its own layout's)::

    git worktree add /tmp/swe-0.2.0 bc1135c
    PYTHONPATH=/tmp/swe-0.2.0 python tools/pickles_020.py tests/data/pickles-0.2.0  # once per Scrapy
    git worktree remove /tmp/swe-0.2.0

0.2.0 gave a decided response a class made at run time per (Scrapy class, encoding), a subclass of
``scrapy_whatwg_encoding.scrapy.responses.Whatwg<Class>`` named ``Whatwg<Class>[<encoding>]``.
The standard ``pickle`` cannot pickle such a response (no module attribute has that name: it raises
``PicklingError``); picklers that carry such a class by value, as cloudpickle does (joblib's and
Dask's process pools, Ray), pickle it with its base ``Whatwg<Class>`` by reference, which 0.3.0 no
longer has. The responses go through 0.2.0's two middlewares as in a crawl with the add-on, their
text is read (a spider's callback would), and the list is pickled with cloudpickle.

Writes ``scrapy-<X.Y>/responses.cloudpickle`` and ``scrapy-<X.Y>/expected.json`` (per response: its URL, 0.2.0's class, the
Scrapy class it came from, ``encoding``, the text, the decision, and what the standard pickle said).
"""
from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import cloudpickle
from scrapy.http import HtmlResponse, Request, TextResponse, XmlResponse
from scrapy.utils.test import get_crawler

import scrapy_whatwg_encoding

# (Scrapy class, URL, Content-Type, body, request meta, encoding= the download handler gave)
PAGES = [
    (HtmlResponse, "http://example.com/meta-windows-1251.html", "text/html",
     '<meta charset="windows-1251"><title>Привет</title>'.encode("cp1251"), {}, None),
    (HtmlResponse, "http://example.com/unlabeled-shift_jis.html", "text/html",
     ("<title>日本語のページ</title><p>" + "これは日本語の文章です。" * 8).encode("shift_jis"), {}, None),
    (HtmlResponse, "http://example.com/latin1-c1.html", "text/html; charset=iso-8859-1",
     b"<title>\x80 caf\xe9 \x81</title>", {}, None),
    (TextResponse, "http://example.com/bom.txt", "text/plain", b"\xef\xbb\xbfcaf\xc3\xa9", {}, None),
    (XmlResponse, "http://example.com/feed.xml", "application/xml",
     '<?xml version="1.0" encoding="koi8-r"?><rss><title>Новости</title></rss>'.encode("koi8-r"), {}, None),
    (HtmlResponse, "http://example.com/rendered.html", "text/html; charset=iso-8859-1",
     "<title>Привет 東京</title>".encode(), {}, "utf-8"),
    (HtmlResponse, "http://example.com/not-sniffed.html", "text/html",
     b'<meta charset="koi8-r"><title>x</title>', {"dont_sniff_encoding": True}, None),
]


def main(out: str) -> None:
    from scrapy_whatwg_encoding import WhatwgEncodingMiddleware
    from scrapy_whatwg_encoding.scrapy import responses as module
    from scrapy_whatwg_encoding.scrapy.handler import HandlerEncodingMiddleware

    # (__version__ reads the installed distribution's metadata, which may be another checkout's.)
    assert hasattr(module, "decided_class"), f"run with 0.2.0 on the path, not {scrapy_whatwg_encoding.__file__}"
    crawler = get_crawler(settings_dict={"ADDONS": {"scrapy_whatwg_encoding.Addon": 0}})
    handler, middleware = HandlerEncodingMiddleware.from_crawler(crawler), WhatwgEncodingMiddleware.from_crawler(crawler)
    responses, expected = [], []
    for cls, url, content_type, body, meta, encoding in PAGES:
        request = Request(url, meta=dict(meta))
        kwargs = {} if encoding is None else {"encoding": encoding}
        built = cls(url, headers={"Content-Type": content_type}, body=body, request=request, **kwargs)
        response = middleware.process_response(request, handler.process_response(request, built))
        response.request = request  # as Scrapy's engine sets it
        text = response.text  # read, as a spider's callback would (Scrapy caches it)
        try:
            pickle.dumps(response)
            standard = "ok"
        except pickle.PicklingError as exc:
            standard = f"PicklingError: {exc}"
        responses.append(response)
        expected.append({"url": url, "class_0_2_0": type(response).__qualname__, "scrapy_class": cls.__name__,
                         "encoding": response.encoding, "text": text, "decision": request.meta.get("whatwg_encoding"),
                         "standard_pickle": standard})
    import scrapy

    folder = Path(out) / f"scrapy-{'.'.join(scrapy.__version__.split('.')[:2])}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "responses.cloudpickle").write_bytes(cloudpickle.dumps(responses, protocol=4))
    (folder / "expected.json").write_text(json.dumps({"version": "0.2.0", "scrapy": scrapy.__version__, "responses": expected},
                                                     ensure_ascii=False, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:])
