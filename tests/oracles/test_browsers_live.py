"""A fresh recording in a real browser (issue 18): Debian's headless Chromium, driven by Playwright
for Python (``executable_path``: no ``playwright install``), scripting off through its profile's
preferences and checked (``<noscript>`` parses as markup), loads a sample of the generated
documents from a local server on 127.0.0.1. Its answers must equal the recorded ones
(tests/data/browsers), and the browsers profile must give them wherever the recorded Firefox
answer agrees. Skips when ``chromium`` is not installed (CI installs it)."""
from __future__ import annotations

import json
import pathlib
import shutil
import sys

import pytest

from scrapy_whatwg_encoding import sniff

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "differential"))

import compare
import grammar
import record

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DATA = ROOT / "tests" / "data" / "browsers"
# (recording, stride): every 73rd of seed 18's 22,000 documents (about 300, every family) and every
# 27th of seed 27's 4,000 (about 150, untyped responses and duplicated attributes among them).
RECORDINGS = [(DATA / "answers.jsonl.gz", 73), (DATA / "answers-27.jsonl.gz", 27)]
pytestmark = pytest.mark.browser


def _record(origin: str, indices, profile_dir: pathlib.Path) -> tuple[dict, dict]:
    from playwright.sync_api import sync_playwright

    (profile_dir / "Default").mkdir(parents=True)
    (profile_dir / "Default" / "Preferences").write_text(json.dumps(
        {"profile": {"default_content_setting_values": {"javascript": 2}}}))  # scripting off
    answers = {}
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile_dir), executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--lang=en-US"])
        page = context.new_page()
        page.goto(f"{origin}/noscript-check", wait_until="load")
        check = page.evaluate("({markup: !!document.getElementById('inside'), ran: document.title === 'script ran'})")
        for index in indices:
            url = f"{origin}/doc/{index}"
            try:
                page.goto(url, wait_until="load", timeout=20_000)
                for _ in range(100):  # a text/css response may resolve goto() before it commits
                    href, state, charset = page.evaluate("[location.href, document.readyState, document.characterSet]")
                    if href == url and state == "complete":
                        break
                    page.wait_for_timeout(20)
                answers[index] = charset if href == url else None
            except Exception:  # noqa: BLE001 — a failed load is counted, not fatal
                answers[index] = None
        context.close()
    return answers, check


@pytest.mark.parametrize(("answers", "stride"), RECORDINGS, ids=["seed-18", "seed-27"])
def test_a_fresh_chromium_sample_matches_the_recording_and_the_profile(tmp_path, answers, stride):
    if CHROMIUM is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium)")
    header, lines = compare.read_answers(answers)
    recorded = {line["i"]: line for line in lines}
    indices = sorted(recorded)[::stride]
    server = record.serve(header["seed"])
    try:
        fresh, check = _record(f"http://127.0.0.1:{server.server_address[1]}", indices, tmp_path / "chromium")
    finally:
        server.shutdown()
    assert check == {"markup": True, "ran": False}, "scripting is not off"
    # A response Chromium downloads (an untyped binary body) has no document, recorded or fresh.
    failed = [i for i in indices if fresh[i] is None and recorded[i]["chromium"] is not None]
    assert len(failed) <= len(indices) // 100, failed
    changed, profile_wrong = [], []
    for index in indices:
        now = compare.name(fresh[index])
        if now is None or recorded[index]["chromium"] is None:
            continue
        if now != compare.name(recorded[index]["chromium"]):
            changed.append((index, recorded[index]["chromium"], now))
        if compare.name(recorded[index]["firefox"]) == now:
            _, content_type, body = grammar.document(header["seed"], index)
            if sniff(body, content_type=content_type, profile="browsers").encoding.name != now:
                profile_wrong.append((index, now))
    assert not changed, f"Chromium now answers otherwise than recorded ({header['browsers']}): {changed}"
    assert not profile_wrong
    assert len(indices) >= 140
