"""Make docs/report-screenshot.png from the demo crawl, as the README and docs/report.rst show it.

Usage: python tools/report_screenshot.py [--output docs/report-screenshot.png] [--width 1280] [--height 1360]

Runs the example project's demo crawl with the report on (``scrapy crawl demo -s
WHATWG_ENCODING_REPORT=...`` in ``example_project/``, a real subprocess, as docs/report.rst says),
then opens the report in headless Chromium (Debian's ``chromium``; the flags are those of
tests/scrapy/test_report_chromium.py) and saves the top *width* × *height* CSS pixels of it as a
PNG. Needs the package installed (``pip install -e .``) and ``chromium`` on the PATH. Regenerate the
picture whenever the report's page changes, and look at it before committing.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def crawl_report(report: Path) -> None:
    """The demo crawl, writing its report to *report* (an ``.html`` path)."""
    result = subprocess.run([sys.executable, "-m", "scrapy", "crawl", "demo", "-s", f"WHATWG_ENCODING_REPORT={report}"],
                            cwd=REPO / "example_project", capture_output=True, text=True, timeout=300, check=False)
    if result.returncode != 0 or not report.is_file():
        sys.exit(f"the demo crawl failed (exit status {result.returncode}):\n{result.stderr[-3000:]}")


def screenshot(page: Path, output: Path, width: int, height: int, profile: Path) -> None:
    """*page* (a local HTML file) rendered by headless Chromium at *width* × *height*, saved as
    the PNG *output*."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("headless Chromium is not installed (Debian: apt-get install chromium)")
    flags = ["--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars", f"--user-data-dir={profile}",
             f"--window-size={width},{height}", f"--screenshot={output}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        flags.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    result = subprocess.run([chromium, *flags, page.as_uri()], capture_output=True, text=True, timeout=120,
                            check=False)
    if result.returncode != 0 or not output.is_file():
        sys.exit(f"chromium failed (exit status {result.returncode}):\n{result.stderr[-2000:]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "report-screenshot.png")
    parser.add_argument("--width", type=int, default=1280, help="CSS pixels (default: 1280)")
    parser.add_argument("--height", type=int, default=1360, help="CSS pixels (default: 1360)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        report = Path(directory) / "report.html"
        crawl_report(report)
        output = args.output.resolve()
        screenshot(report, output, args.width, args.height, Path(directory) / "profile")
    print(f"{output}: the demo crawl's report, {args.width}×{args.height}")


if __name__ == "__main__":
    main()
