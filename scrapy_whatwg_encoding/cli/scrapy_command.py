"""``scrapy sniff URL``: the ``explain`` command inside a Scrapy project, with the project's
settings — its downloader settings for the fetch (as ``scrapy fetch``: the project spider that
handles the URL, or ``--spider``) and its ``WHATWG_ENCODING_*`` settings for the decision.

Registered through the ``scrapy.commands`` entry point (``pyproject.toml``: ``sniff``)."""
from __future__ import annotations

import sys
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from ..scrapy.settings import InvalidSetting, read_config
from . import CliError
from .main import add_explain_options, is_url, run_explain


class Command(ScrapyCommand):
    requires_project = False  # works outside a project too, with Scrapy's default settings
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False, "TELNETCONSOLE_ENABLED": False}

    def syntax(self) -> str:
        return "[options] <url or path>"

    def short_desc(self) -> str:
        return "Explain the encoding a browser would pick for a page, step by step"

    def long_desc(self) -> str:
        return ("Fetch a URL with the project's settings (or read a file) and show every step of the "
                "HTML encoding sniffing algorithm, the decision, and the text it gives next to the "
                "text Scrapy alone gives. Options left out take the WHATWG_ENCODING_* settings. "
                "Logging is off unless -L or --logfile is given. Exit status 1 when the fetch fails, "
                "2 for a usage error or an invalid WHATWG_ENCODING_* setting.")

    def add_options(self, parser) -> None:
        super().add_options(parser)
        parser.add_argument("--spider", dest="spider", help="fetch with this spider (and its custom_settings)")
        add_explain_options(parser, with_url=False)

    def run(self, args: list[str], opts) -> None:
        if len(args) != 1:
            raise UsageError("give one URL or path")
        opts.target, opts.url = args[0], None
        try:
            if is_url(opts.target):
                from .fetch import fetch

                fetched = fetch(opts.target, self.crawler_process, opts.spider)
                output = run_explain(opts, fetched)
            else:
                try:
                    config = read_config(self.settings)
                except InvalidSetting as exc:
                    raise CliError(f"invalid setting: {exc}", 2) from None
                output = run_explain(opts, config=config)
        except CliError as exc:
            print(f"error: {exc}", file=sys.stderr)
            self.exitcode = exc.code
            return
        try:
            print(output)
        except BrokenPipeError:
            sys.stderr.close()  # output piped to a command that stopped reading

