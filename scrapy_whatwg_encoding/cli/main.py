"""``python -m scrapy_whatwg_encoding explain|audit`` (and the ``scrapy-whatwg-encoding`` script):
argument parsing and exit codes (0 success, 1 a file, directory or URL could not be read, 2 usage
error, an invalid option value or ``WHATWG_ENCODING_*`` setting)."""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from .. import __version__
from ..sniffing.decision import DETECTOR_MODES, PROFILES, Profile
from . import CliError

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
DETECTORS = DETECTOR_MODES


def is_url(target: str) -> bool:
    """*target* is a URL to fetch (it has a scheme and ``//``), not a path."""
    return bool(_URL.match(target))


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of bytes ≥ 1, not {value!r}")
    return number


def _examples(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number ≥ 0, not {value!r}")
    return int(value)


def add_explain_options(parser: argparse.ArgumentParser, *, with_url: bool = True) -> None:
    """The sniffing options of ``explain`` (and of ``scrapy sniff``). Options left out keep the
    value of the ``WHATWG_ENCODING_*`` settings for a URL, the algorithm's defaults for a path."""
    parser.add_argument("--content-type", metavar="VALUE",
                        help="Content-Type header value (for a URL: instead of the server's; for a path: "
                             "instead of the kind its name gives: .xml .rss .atom .svg .xhtml XML, "
                             ".txt plain text, else HTML)")
    parser.add_argument("--locale", metavar="TAG", help='language tag for the default encoding, e.g. "ja"')
    parser.add_argument("--default", metavar="LABEL", help="an encoding label used instead of the locale's default")
    parser.add_argument("--override", metavar="LABEL", help="user override (sniffing step 2)")
    parser.add_argument("--likely", metavar="LABEL", help="likely encoding (sniffing step 7)")
    parser.add_argument("--profile", choices=PROFILES,
                        help="standard: the HTML standard's algorithm (default); browsers: what Firefox and "
                             "Chromium agree on where they leave it")
    parser.add_argument("--detector", choices=DETECTORS,
                        help="autodetection mode (default: the profile's, full or browser)")
    parser.add_argument("--prescan-bytes", type=_positive, metavar="N", help="bytes the prescan examines (default 1024)")
    if with_url:
        parser.add_argument("--url", help="for a path: the URL the page came from (its TLD hints the detector)")
    parser.add_argument("--json", action="store_true", help="print the explanation as JSON")
    parser.add_argument("--html", metavar="FILE", help="also write the explanation as an HTML page, "
                        "the matched bytes marked")


def read_path(target: str) -> bytes:
    """The bytes of the file *target*; :class:`CliError` (code 1) when it cannot be read."""
    try:
        return Path(target).read_bytes()
    except IsADirectoryError:
        raise CliError(f"{target}: is a directory (use audit for a directory)") from None
    except FileNotFoundError:
        raise CliError(f"{target}: no such file") from None
    except OSError as exc:
        raise CliError(f"{target}: cannot read: {exc.strerror or exc}") from None


def run_explain(args, fetched=None, config=None) -> str:
    """Explain ``args.target`` (a path, or a URL already downloaded as *fetched*, a
    :class:`.fetch.Fetched`) with the options in *args* and, for those not given, *config* (a
    ``scrapy.settings.Config``; the fetch's own for a URL); returns the text or JSON to print."""
    from ..scrapy.settings import Config, InvalidSetting, check_label, check_locale, profile_detector
    from .explain import explain, render
    from .kind import choose_kind

    config = fetched.config if fetched is not None else config or Config()
    try:
        check_label("--default", args.default)  # as WHATWG_ENCODING_DEFAULT
        check_label("--override", args.override)  # as WHATWG_ENCODING_OVERRIDES' labels
        options = config.options
        locale = check_locale("--locale", args.locale) if args.locale is not None else options.locale
        profile = args.profile or options.profile
        detector = (profile_detector("--detector", profile, args.detector) if args.detector
                    else config.options_for(profile, options.locale).mode)
    except InvalidSetting as exc:
        raise CliError(str(exc), 2) from None
    if fetched is not None:
        body, url = fetched.body, fetched.url
        given = args.content_type is not None
        content_type = args.content_type if given else fetched.content_type
        document = choose_kind(content_type, given_by="--content-type" if given else "the server's Content-Type")
        target = {"url": args.target, "final_url": fetched.url, "status": fetched.status,
                  "spider": fetched.spider, "content_type": fetched.content_type,
                  "middleware_enabled": fetched.middleware, "middleware": middleware_note(fetched)}
        scrapy_url = fetched.url
    else:
        body, url, content_type = read_path(args.target), getattr(args, "url", None), args.content_type
        document = choose_kind(content_type, path=args.target)
        target = {"path": args.target}
        scrapy_url = url or Path(args.target).resolve().as_uri()
    report = explain(
        body, target=target, scrapy_url=scrapy_url, content_type=content_type, document=document, url=url,
        locale=locale, default=args.default if args.default is not None else options.default,
        override=args.override, likely=args.likely,
        detector=detector, profile=profile,
        prescan_bytes=args.prescan_bytes or options.prescan_bytes)
    if getattr(args, "html", None):
        from .explain import write_html
        _write(write_html, report, body, args.html)
    return json.dumps(report, ensure_ascii=False, indent=2) if args.json else render(report)


def middleware_note(fetched) -> str:
    """What the add-on's middleware does with a fetched response, in the crawl's settings."""
    does = "sniffs it" if fetched.kind else "leaves it untouched: not HTML, XML or text"
    if fetched.middleware:
        return f"the add-on's middleware {does}"
    would = "would sniff it" if fetched.kind else "would leave it untouched: not HTML, XML or text"
    return f"the add-on is not enabled in these settings; its middleware {would}"


def _write(writer, *args) -> None:
    """Run *writer* (an HTML writer whose last argument is the path); :class:`CliError` (code 1)
    when the file cannot be written."""
    try:
        writer(*args)
    except OSError as exc:
        raise CliError(f"{args[-1]}: cannot write: {exc.strerror or exc}") from None


def _explain_command(args) -> str:
    if not is_url(args.target):
        return run_explain(args)
    if args.url is not None:
        raise CliError("--url is for a path; a URL is fetched and its own URL is used", 2)
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    from .fetch import fetch, quiet_settings

    try:
        settings = get_project_settings()
    except Exception as exc:  # noqa: BLE001 — a broken project: say so in one line
        raise CliError(f"cannot load the Scrapy project's settings: {type(exc).__name__}: {exc}") from None
    process = CrawlerProcess(quiet_settings(settings))
    return run_explain(args, fetch(args.target, process))


def _audit_command(args) -> str:
    from ..report import ReportData
    from ..scrapy.settings import InvalidSetting, profile_detector
    from .audit import audit, render_csv, render_table, write_html

    profile: Profile = args.profile if args.profile else "standard"
    try:
        detector = profile_detector("--detector", profile, args.detector)
    except InvalidSetting as exc:
        raise CliError(str(exc), 2) from None
    data = ReportData(args.html_examples) if args.html else None
    report = audit(Path(args.directory), manifest=args.manifest, content_type_from=args.content_type_from,
                   content_type=args.content_type, locale=args.locale, detector=detector, profile=profile,
                   progress=not args.no_progress, report=data)
    if data is not None:
        _write(write_html, report, data, args.html)
    if args.json:
        return json.dumps(report, ensure_ascii=False, indent=2)
    return render_csv(report) if args.csv else render_table(report, verbose=args.verbose)


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; *prog* is the command name shown in usage lines (default: the name the
    program was invoked as, e.g. ``scrapy-whatwg-encoding``)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Explain and audit encoding decisions the way browsers make them "
                    "(WHATWG Encoding Standard, HTML encoding sniffing algorithm).",
        epilog="Exit status: 0 success, 1 a file, directory or URL could not be read, 2 usage error "
               "(an invalid option or WHATWG_ENCODING_* setting).")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    explain = commands.add_parser(
        "explain", help="show every step of the decision for one page (a file or a URL)",
        description="Show every step of the encoding sniffing algorithm for one page. A URL is "
                    "fetched with Scrapy (the project's settings when run inside a Scrapy project).")
    explain.add_argument("target", metavar="PATH_OR_URL")
    add_explain_options(explain)
    audit = commands.add_parser(
        "audit", help="decide every page of a directory; compare with Scrapy and a manifest",
        description="Run the algorithm over every file of a directory (or every manifest entry) and "
                    "report counts per source and encoding, pages Scrapy alone decodes differently, "
                    "and accuracy against a manifest of true encodings.")
    audit.add_argument("directory", metavar="DIR")
    audit.add_argument("--manifest", metavar="FILE",
                       help='JSON list of {"path", "encoding", ...} (paths relative to DIR); '
                            "a relative FILE is looked for in the current directory, then in DIR")
    audit.add_argument("--content-type-from", choices=("none", "manifest"), default="none",
                       help="none: no Content-Type (default), each file's name chooses HTML, XML or plain "
                            "text; manifest: text/html with the manifest's charset")
    audit.add_argument("--content-type", metavar="VALUE",
                       help="one Content-Type header value for every page (instead of the file names)")
    audit.add_argument("--locale", metavar="TAG", help="language tag for the default encoding")
    audit.add_argument("--profile", choices=PROFILES, help="standard (default) or browsers (see explain)")
    audit.add_argument("--detector", choices=DETECTORS,
                       help="autodetection mode (default: the profile's, full or browser)")
    output = audit.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="summary and one record per page as JSON")
    output.add_argument("--csv", action="store_true", help="one CSV row per page")
    audit.add_argument("--verbose", action="store_true", help="list every page, not only the differences")
    audit.add_argument("--html", metavar="FILE", help="also write an HTML report (charts, hosts, "
                       "pages Scrapy decodes differently, accuracy)")
    audit.add_argument("--html-examples", type=_examples, default=20, metavar="N",
                       help="pages shown per decision source in the HTML report (default 20)")
    audit.add_argument("--no-progress", action="store_true", help="no progress bar (it is shown on a terminal only)")
    return parser


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Run the command line with *argv* (default ``sys.argv[1:]``) as the command *prog* (default: the
    name it was invoked as); returns the exit status."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = build_parser(prog).parse_args(argv)  # usage errors exit with status 2
    try:
        output = _explain_command(args) if args.command == "explain" else _audit_command(args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    try:
        print(output)
    except BrokenPipeError:
        sys.stderr.close()  # output piped to a command that stopped reading
    return 0
