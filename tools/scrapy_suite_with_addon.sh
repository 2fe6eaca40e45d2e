#!/usr/bin/env bash
# Scrapy's own test suite with the add-on on: does the add-on break anything Scrapy tests?
#
#   tools/scrapy_suite_with_addon.sh                 # the newest Scrapy release, its whole suite
#   tools/scrapy_suite_with_addon.sh 2.19.0          # that release
#   tools/scrapy_suite_with_addon.sh 2.19.0 -- tests/test_crawler_subprocess.py   # some of it
#
# Gets the release's sdist from PyPI (pip download --no-binary scrapy; it ships tests/, which is
# checked; nothing of Scrapy's is committed here), installs that release, its test requirements
# (tox.ini's [test-requirements], plus pytest-asyncio for the reactorless run) and this checkout in
# a venv of its own, and runs the suite as Scrapy's tox does (`pytest scrapy tests
# --doctest-modules`) once per reactor mode (REACTORS: "asyncio", Scrapy's default; "none", its
# reactorless run `-p no:twisted --reactor=none`; "default", Twisted's default reactor), each twice:
# without the add-on, and with it enabled globally: with SCRAPY_SUITE_ADDON=1, a module the venv
# loads at start-up (a .pth file, as a sitecustomize) adds `scrapy_whatwg_encoding.Addon` to
# Scrapy's default ADDONS and applies it to a crawler whose own ADDONS left it out, so every
# crawler of every process a test starts has it. Both runs ignore two warnings pytest gives about
# Scrapy's tests (below). Tests that fail only with the add-on are run again, one process, both
# ways; those that still fail only with it are printed, and the exit status is their number.
#
# Environment: PYTHON (for the venv; default python3), WORK_DIR (default .venvs/scrapy-suite, kept
# between runs), JOBS (pytest-xdist workers per run, default 2), REACTORS (default "asyncio none"),
# PARALLEL=1 (the runs without and with the add-on at the same time), REUSE=1 (a run whose JUnit
# XML is in WORK_DIR already is not run again: compare, or finish an interrupted run). Exit status
# 100: the tool itself failed (download, install, a run that did not end, a module that did not
# collect, a run without tests).
# It takes long (Scrapy's ~4,900 tests, twice per mode): run it with nice, not in .ci/run.
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
PYTHON="${PYTHON:-python3}"
WORK="${WORK_DIR:-.venvs/scrapy-suite}"
JOBS="${JOBS:-2}"
REACTORS="${REACTORS:-asyncio none}"

version=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then version=$1; shift; fi
[ "${1:-}" = "--" ] && shift
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(scrapy tests --doctest-modules)

mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
venv="$WORK/venv"
say() { echo "[scrapy suite] $*" >&2; }
[ -x "$venv/bin/python" ] || "$PYTHON" -m venv "$venv" || exit 100
py="$venv/bin/python"

# The sdist (the newest release unless a version is given).
mkdir -p "$WORK/sdist"
spec=scrapy; [ -n "$version" ] && spec="scrapy==$version"
"$py" -m pip download -q --no-deps --no-binary scrapy "$spec" -d "$WORK/sdist" >/dev/null 2>&1 ||
    { say "cannot download the sdist of $spec"; exit 100; }
sdist=$(ls -t "$WORK"/sdist/scrapy-${version:-*}.tar.gz 2>/dev/null | head -n 1)  # the glob unquoted: no version, the newest
[ -n "$sdist" ] || { say "no sdist of $spec in $WORK/sdist"; exit 100; }
version=$(basename "$sdist" .tar.gz); version=${version#scrapy-}
src="$WORK/scrapy-$version"
[ -d "$src" ] || tar xzf "$sdist" -C "$WORK" || exit 100
[ -d "$src/tests" ] || { say "the sdist of Scrapy $version ships no tests/"; exit 100; }

# The venv: that Scrapy, its test requirements, this checkout.
stamp="$venv/.scrapy-suite-$version"
if [ ! -e "$stamp" ]; then
    say "installing Scrapy $version, its test requirements and this checkout in $venv"
    mapfile -t requirements < <("$py" - "$src/tox.ini" <<'EOF'
import configparser, sys
config = configparser.RawConfigParser()
config.read(sys.argv[1])
for line in config["test-requirements"]["deps"].splitlines():
    line = line.split("#")[0].strip()
    if line:
        print(line)
EOF
)
    "$py" -m pip install -q --upgrade pip >/dev/null &&
    "$py" -m pip install -q "scrapy==$version" "${requirements[@]}" pytest-asyncio -e "$REPO" \
        >"$WORK/install.log" 2>&1 || { say "install failed, see $WORK/install.log"; exit 100; }
    touch "$stamp"
fi

# The hook: with SCRAPY_SUITE_ADDON=1 in the environment (inherited by every process a test
# starts), adds the add-on to scrapy.settings.default_settings.ADDONS when Scrapy imports it, and
# has scrapy.addons.AddonManager.load_settings apply it where a test's own ADDONS replaced the
# default (nothing else is imported at start-up). Loaded by a .pth file in the venv (as a
# sitecustomize would be, but without touching PYTHONPATH, which Scrapy's tests set for their
# subprocesses, nor depending on the interpreter having no sitecustomize of its own).
site_packages=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cat >"$site_packages/scrapy_suite_addon.py" <<'EOF_HOOK'
"""With SCRAPY_SUITE_ADDON=1: enables scrapy_whatwg_encoding's add-on in every Scrapy crawler of
this process (tools/scrapy_suite_with_addon.sh): Scrapy's default ADDONS gets it when Scrapy loads
them, and a crawler whose ADDONS setting replaced the default (tests of add-ons set their own) has
its update_settings applied after theirs, without appearing in crawler.addons.addons (which those
tests inspect)."""
import importlib.abc
import importlib.machinery
import os
import sys

ADDON = "scrapy_whatwg_encoding.Addon"


def _add_to_defaults(module):
    module.ADDONS = {**module.ADDONS, ADDON: 0}


def _apply_where_missing(module):
    load_settings = module.AddonManager.load_settings

    def load_settings_and_ours(self, settings):
        load_settings(self, settings)
        from scrapy.utils.misc import build_from_crawler, load_object

        cls = load_object(ADDON)
        if not any(isinstance(addon, cls) for addon in self.addons):
            build_from_crawler(cls, self.crawler).update_settings(settings)

    module.AddonManager.load_settings = load_settings_and_ours


PATCHES = {"scrapy.settings.default_settings": _add_to_defaults, "scrapy.addons": _apply_where_missing}


class _Patch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        patch = PATCHES.get(name)
        if patch is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_and_patch(module):
            exec_module(module)
            patch(module)

        spec.loader.exec_module = exec_and_patch
        return spec


if os.environ.get("SCRAPY_SUITE_ADDON") == "1":
    sys.meta_path.insert(0, _Patch())
EOF_HOOK
echo "import scrapy_suite_addon" >"$site_packages/scrapy_suite_addon.pth"
# The check: the default ADDONS, and a crawler whose own ADDONS leave the add-on out.
for addon in 0 1; do
    check=$(cd "$src" && SCRAPY_SUITE_ADDON=$addon "$py" -c '
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler
own = get_crawler(settings_dict={"ADDONS": {}}).settings.getdict("DOWNLOADER_MIDDLEWARES")
print("scrapy_whatwg_encoding.Addon" in Settings()["ADDONS"], any("WhatwgEncoding" in str(k) for k in own))')
    expected=$([ $addon = 1 ] && echo "True True" || echo "False False")
    [ "$check" = "$expected" ] || { say "the hook does not work (SCRAPY_SUITE_ADDON=$addon: $check)"; exit 100; }
done

# Warnings pytest itself gives about Scrapy's tests, errors under Scrapy's `filterwarnings = error`
# with the add-on as without it, so ignored in both runs: pytest 9.2's PytestRemovedIn10Warning
# (session-scoped fixtures defined as instance methods: 149 tests errored at setup) and its
# PytestWarning for a fixture wrapped by @staticmethod (tests/test_downloader_handler_twisted_ftp.py
# failed to collect; without xdist that stopped the whole run).
warning_filters=(-W "ignore:fixture ':pytest.PytestWarning")
"$py" -c 'import pytest; pytest.PytestRemovedIn10Warning' 2>/dev/null &&
    warning_filters+=(-W "ignore::pytest.PytestRemovedIn10Warning")

# run NAME ADDON(0|1) REACTOR TESTS...: one pytest run, its JUnit XML in $WORK/<version>-<reactor>-<name>.xml
run() {
    local name=$1 addon=$2 reactor=$3; shift 3
    # As Scrapy's tox.ini: pytest-asyncio only in the reactorless run (its loop scope set, as its
    # start-up warning is an error under Scrapy's filterwarnings).
    local out="$WORK/$version-$reactor-$name" reactor_args=(-p no:asyncio --reactor="$reactor")
    [ "$reactor" = none ] && reactor_args=(-p no:twisted --reactor=none -o asyncio_default_fixture_loop_scope=function)
    local parallel=(); [ "$JOBS" -gt 1 ] && [ "$name" != rerun-off ] && [ "$name" != rerun-on ] && parallel=(-n "$JOBS")
    local env=(SCRAPY_SUITE_ADDON="$addon")
    if [ "${REUSE:-0}" = 1 ] && [ -s "$out.xml" ]; then
        say "$reactor, add-on $([ "$addon" = 1 ] && echo on || echo off), $name: reusing $out.xml"
        return
    fi
    local start=$SECONDS
    (cd "$src" && env "${env[@]}" "$py" -m pytest -p no:cacheprovider -q -rfE "${parallel[@]}" "${reactor_args[@]}" \
        "${warning_filters[@]}" --junitxml="$out.xml" -o junit_family=legacy "$@" >"$out.log" 2>&1)
    say "$reactor, add-on $([ "$addon" = 1 ] && echo on || echo off), $name: $(tail -n 1 "$out.log" | tr -d '=') ($((SECONDS - start)) s)"
    if ! [ -s "$out.xml" ]; then  # pytest was stopped (a signal, a crash): nothing to compare
        say "no results in $out.xml: the run did not end, see $out.log"
        touch "$WORK/.incomplete"
        return
    fi
    # A module that does not collect, or a run without tests, compares nothing: the tool fails.
    local problem
    problem=$("$py" - "$out.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET
cases = list(ET.parse(sys.argv[1]).iter("testcase"))
broken = sorted(f"{case.get('classname')}.{case.get('name')}".strip(".") for case in cases
                if any(e.get("message", "").startswith("collection failure") for e in case.iter("error")))
if broken:
    print(f"did not collect ({len(broken)}): {', '.join(broken)}")
elif not cases:
    print("no test ran")
EOF
)
    if [ -n "$problem" ]; then
        say "$out.xml: $problem (see $out.log)"
        touch "$WORK/.incomplete"
    fi
}

# outcomes XML...: "<outcome> <classname>::<name>" per test of these JUnit XML files (outcome:
# passed, failed, skipped).
outcomes() {
    "$py" - "$@" <<'EOF'
import sys
import xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    for case in ET.parse(path).iter("testcase"):
        bad = case.find("failure") is not None or case.find("error") is not None
        outcome = "failed" if bad else "skipped" if case.find("skipped") is not None else "passed"
        print(outcome, f"{case.get('classname')}::{case.get('name')}")
EOF
}
failed() { outcomes "$@" | sed -n 's/^failed //p' | sort -u; }

# node_ids < KEYS: the pytest node id of each <classname>::<name> (classname: the module's dotted
# path, then its classes).
node_ids() {
    "$py" -c '
import sys
for key in sys.stdin.read().split("\n"):
    if key:
        dotted, name = key.split("::", 1)
        parts = dotted.split(".")
        i = next((n for n, p in enumerate(parts) if p[:1].isupper()), len(parts))
        print("/".join(parts[:i]) + ".py" + "".join("::" + p for p in parts[i:]) + "::" + name)'
}

total=0
rm -f "$WORK/.incomplete"
for reactor in $REACTORS; do
    if [ "${PARALLEL:-0}" = 1 ]; then  # both at once (Scrapy's tests wait much: it saves time)
        run off 0 "$reactor" "${tests[@]}" &
        run on 1 "$reactor" "${tests[@]}"
        wait
    else
        run off 0 "$reactor" "${tests[@]}"
        run on 1 "$reactor" "${tests[@]}"
    fi
    base="$WORK/$version-$reactor"
    if [ -e "$WORK/.incomplete" ]; then
        echo "Scrapy $version, reactor $reactor: a run did not end, failed to collect or ran no test (see $base-*.log)"
        exit 100
    fi
    comm -13 <(failed "$base-off.xml") <(failed "$base-on.xml") >"$base-only-on.txt"
    if [ -s "$base-only-on.txt" ]; then
        # Again, one process, both ways: a test that now passes with the add-on, or fails without
        # it too, is not the add-on's (a test the rerun cannot find stays on the list).
        mapfile -t again < <(node_ids <"$base-only-on.txt")
        say "$reactor: ${#again[@]} tests failed only with the add-on; running them again, both ways"
        run rerun-off 0 "$reactor" "${again[@]}"
        run rerun-on 1 "$reactor" "${again[@]}"
        comm -23 "$base-only-on.txt" <({ outcomes "$base-rerun-on.xml" | sed -n 's/^passed //p'
                                         failed "$base-rerun-off.xml"; } | sort -u) >"$base-only-on.tmp"
        mv "$base-only-on.tmp" "$base-only-on.txt"
    fi
    count=$(grep -c . "$base-only-on.txt")
    echo "Scrapy $version, reactor $reactor: $count tests fail only with the add-on (logs: $base-*.log)"
    sed 's/^/    /' "$base-only-on.txt"
    total=$((total + count))
done
[ -e "$WORK/.incomplete" ] && { say "a rerun did not end or ran no test: the list above may be incomplete"; exit 100; }
exit "$total"
