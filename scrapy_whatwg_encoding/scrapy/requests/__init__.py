"""Requests as a browser builds them from a decided page: :mod:`.url` encodes a query as the URL
Standard does with the page's encoding, :mod:`.links` follows links (``follow()``, ``urljoin()``,
``LinkExtractor``, ``MetaRefreshMiddleware``), :mod:`.forms` submits forms (``form_request()``), and
:mod:`.portable` keeps the requests they build usable where the package is not imported
(docs/responses.rst, "Links and forms" and "Portable requests")."""
