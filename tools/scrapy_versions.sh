#!/usr/bin/env bash
# Run the Scrapy-layer tests (real crawls) on every supported Scrapy minor release, one venv each,
# and print one pass/fail line per release. For developers; .ci/run uses it for the floor only.
#
#   tools/scrapy_versions.sh            # every minor release from the floor to the newest
#   tools/scrapy_versions.sh 2.11 2.19  # only these
#
# Environment: PYTHON (interpreter for the venvs; default pyenv's 3.10.13 if present, else
# python3), VENV_DIR (where the venvs live, reused between runs; default .venvs in the repo),
# PYTEST_ARGS (extra pytest arguments). Exit status: the number of failed releases (0: all pass).
set -uo pipefail
cd "$(dirname "$0")/.."

VERSIONS=(2.11 2.12 2.13 2.14 2.15 2.16 2.17 2.18 2.19)
# The Scrapy-layer tests: everything that runs a crawl (the add-on, `explain URL`, `scrapy sniff`) or
# calls the middleware.
TESTS=(tests/scrapy tests/package/test_concurrency.py tests/package/test_hostile_http.py tests/cli/test_fetch.py)

# What each release needs besides its own requirements: the Twisted its CI used (2.11 and 2.12
# declare no upper bound but predate later Twisted releases; 2.13-2.15 declare <=25.5.0 themselves),
# and for 2.11 and 2.12 a w3lib that still has the private w3lib.url._safe_chars they import
# (removed in w3lib 2.5).
pins_for() {
    case "$1" in
        2.11) echo "Twisted==24.3.0 w3lib<2.5" ;;
        2.12) echo "Twisted==24.11.0 w3lib<2.5" ;;
        *) echo "Twisted" ;;
    esac
}

summary() { tail -n 1 "$1" | tr -d '=' | sed 's/^ *//; s/ *$//'; }  # pytest's last line

default_python=python3
[ -x "$HOME/.pyenv/versions/3.10.13/bin/python" ] && default_python="$HOME/.pyenv/versions/3.10.13/bin/python"
PYTHON="${PYTHON:-$default_python}"
VENV_DIR="${VENV_DIR:-.venvs}"
[ $# -gt 0 ] && VERSIONS=("$@")

failed=0
results=()
for version in "${VERSIONS[@]}"; do
    venv="$VENV_DIR/scrapy-$version"
    log="$VENV_DIR/scrapy-$version.log"
    mkdir -p "$VENV_DIR"
    # shellcheck disable=SC2046
    if ! { { [ -x "$venv/bin/python" ] || "$PYTHON" -m venv "$venv"; } &&
           "$venv/bin/python" -m pip install -q --upgrade pip &&
           "$venv/bin/python" -m pip install -q "scrapy==$version.*" $(pins_for "$version") -e ".[test]"
         } >"$log" 2>&1; then
        line="scrapy $version: FAIL (install, see $log)"
    else
        installed=$("$venv/bin/python" -c 'import platform, scrapy, twisted; print(
            f"scrapy {scrapy.__version__}, twisted {twisted.__version__}, python {platform.python_version()}")')
        # shellcheck disable=SC2086
        if "$venv/bin/python" -m pytest -p no:cacheprovider ${PYTEST_ARGS:-} "${TESTS[@]}" >>"$log" 2>&1; then
            line="scrapy $version: pass ($installed; $(summary "$log"))"
        else
            line="scrapy $version: FAIL ($installed; $(summary "$log"); see $log)"
        fi
    fi
    echo "$line"
    if [[ $line == *FAIL* ]]; then
        failed=$((failed + 1))
        tail -n 40 "$log" | sed "s/^/    [$version] /"
    fi
    results+=("$line")
done
[ ${#results[@]} -gt 1 ] && printf '%s\n' "--- summary" "${results[@]}"
exit "$failed"
