"""Command-line tools above the Scrapy layer: ``python -m scrapy_whatwg_encoding explain|audit``
and the ``scrapy sniff`` command (:mod:`.scrapy_command`).

Modules: ``main`` (argument parsing, exit codes), ``explain`` (one page, step by step),
``steps`` (what each step of the sniffing algorithm found, with the matched bytes), ``kind``
(HTML, XML or plain text: from the Content-Type, or a file's name),
``scrapy_view`` (what Scrapy alone would decode), ``fetch`` (a URL through Scrapy's downloader),
``audit`` (a directory of pages, with an optional manifest of true encodings).

Exit codes: 0 success, 1 a file, directory or URL could not be read, 2 usage error (an invalid
option value or ``WHATWG_ENCODING_*`` setting included).
"""


class CliError(Exception):
    """A failure the user can act on: printed as one line on stderr, exit status ``code``."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code
