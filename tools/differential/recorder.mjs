// Load documents in one headless browser and print {"i": index, "cs": document.characterSet} lines.
// Usage: node recorder.mjs firefox|chromium ORIGIN INDICES.json [TABS]  (a JSON array of document indices)
// ORIGIN serves GET /doc/<index> (record.py's server on 127.0.0.1) and GET /noscript-check.
// Scripting is off through the browsers' own preferences (Firefox: javascript.enabled; Chromium:
// the profile's JavaScript content setting); the first and last lines check that it is:
// {"check": {...}}, where <noscript> content must parse as markup and the page's script not run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

const [which, origin, indicesFile, tabsArg = '6'] = process.argv.slice(2);
const indices = JSON.parse(fs.readFileSync(indicesFile, 'utf8'));
const count = indices.length, tabs = Number(tabsArg);
const firefox = which === 'firefox';
// A host name other than 127.0.0.1 in ORIGIN (for the detector's TLD hint) resolves to 127.0.0.1.
const host = new URL(origin).hostname;
const named = host !== '127.0.0.1';
let userDataDir;
const downloadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'differential-downloads-'));
if (!firefox) {
  userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'differential-chromium-'));
  fs.mkdirSync(path.join(userDataDir, 'Default'));
  fs.writeFileSync(path.join(userDataDir, 'Default', 'Preferences'), JSON.stringify({
    profile: {default_content_setting_values: {javascript: 2}},
    intl: {accept_languages: 'en-US,en'},
  }));
}
const browser = await puppeteer.launch({
  browser: firefox ? 'firefox' : 'chrome',
  executablePath: firefox ? '/usr/bin/firefox-esr' : '/usr/bin/chromium',
  headless: true,
  protocolTimeout: 120000,
  userDataDir,
  args: firefox ? [] : ['--no-sandbox', '--lang=en-US', '--disable-gpu', '--disable-extensions',
    '--no-first-run', '--disable-background-networking',
    ...(named ? [`--host-resolver-rules=MAP ${host} 127.0.0.1`] : [])],
  extraPrefsFirefox: {
    'javascript.enabled': false,
    'intl.accept_languages': 'en-US, en',
    'intl.locale.requested': 'en-US',
    'browser.download.open_pdf_attachments_inline': false,
    'devtools.jsonview.enabled': false,
    // An untyped binary body is a download: saved without asking, so the tab is free again.
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.useDownloadDir': true,
    'browser.download.folderList': 2,
    'browser.download.dir': downloadDir,
    'browser.download.start_downloads_in_tmp_dir': true,
    'browser.download.panel.shown': true,
    ...(named ? {'network.dns.localDomains': host, 'dom.security.https_first': false,
      'dom.security.https_first_pbm': false, 'dom.security.https_first_schemeless': false} : {}),
  },
});
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const version = await browser.version();

async function check(page) {
  await page.goto(`${origin}/noscript-check`, {waitUntil: 'load', timeout: 30000});
  const seen = await page.evaluate(() => ({
    noscriptMarkup: document.querySelector('noscript p#inside') !== null,
    scriptRan: document.title === 'script ran',
  }));
  return {browser: version, ...seen, scriptingOff: seen.noscriptMarkup && !seen.scriptRan};
}

// The characterSet of the document at `url` once it has loaded: a page.goto() may resolve while
// the tab still shows the previous document (seen with text/plain and text/css responses), so
// the URL is checked; Firefox may also reload for a late <meta> or its detector, so it is read
// until two reads 60 ms apart agree.
const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const read = (page) => page.evaluate(() => [location.href, document.readyState, document.characterSet]);

async function load(page, index) {
  const url = `${origin}/doc/${index}`;
  try {
    const response = await page.goto(url, {waitUntil: 'load', timeout: Number(process.env.NAV_TIMEOUT || 20000)});
    let [href, state, cs] = await read(page);
    for (let tries = 0; (href !== url || state !== 'complete') && tries < 100; tries++) {
      await pause(20);
      [href, state, cs] = await read(page);
    }
    if (href !== url) return {i: index, error: `still at ${href}`};
    for (let tries = 0; tries < 5; tries++) {
      await pause(firefox ? 60 : 0);
      const again = await read(page);
      if (again[0] === url && again[2] === cs) break;
      [href, state, cs] = again;
      await pause(200);
    }
    return {i: index, cs, status: response ? response.status() : null};
  } catch (e) {
    return {i: index, error: String(e).slice(0, 200)};
  }
}

const first = await browser.newPage();
out({check: await check(first)});
let next = 0;
const t0 = Date.now();
async function worker(page) {
  while (next < count) {
    const index = indices[next++];
    const answer = await load(page, index);
    out(answer);
    if (answer.error) {  // a download or a stuck load: the next document gets a fresh tab
      await page.close().catch(() => {});
      page = await browser.newPage();
    }
  }
}
const pages = [first];
for (let k = 1; k < tabs; k++) pages.push(await browser.newPage());
await Promise.all(pages.map(worker));
const seconds = (Date.now() - t0) / 1000;
out({check: await check(await browser.newPage()), seconds, docs: count, docsPerSecond: count / seconds});
await browser.close();
fs.rmSync(downloadDir, {recursive: true, force: true});
if (userDataDir) fs.rmSync(userDataDir, {recursive: true, force: true});
