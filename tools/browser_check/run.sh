#!/usr/bin/env bash
# Firefox cross-check of scrapy_whatwg_encoding: decoders, encoders, sniffing. Not part of CI.
# Needs: Debian's firefox-esr (apt-get install -y firefox-esr), node >= 18, npm install here.
set -u
cd "$(dirname "$0")"
PY=${PYTHON:-python}
[ -d node_modules/puppeteer-core ] || npm install --no-audit --no-fund
mkdir -p out
status=0
$PY cases.py out/cases
node decode.mjs out/cases out/firefox
$PY compare_decoders.py out/cases out/firefox --json out/decoders_report.json || status=1
$PY encoder_cases.py out/enc_cases
node encode.mjs out/enc_cases out/firefox_enc
$PY compare_encoders.py out/enc_cases out/firefox_enc --json out/encoders_report.json || status=1
$PY sniff_cases.py out/sniff_cases.json
node sniff.mjs out/sniff_cases.json out/sniff_firefox.json
$PY compare_sniff.py out/sniff_cases.json out/sniff_firefox.json --json out/sniff_report.json
exit $status
