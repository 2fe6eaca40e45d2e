// Shared helpers: launch Firefox ESR headless through WebDriver BiDi (puppeteer-core), and a
// local HTTP server on 127.0.0.1 that serves registered bodies with exact Content-Type headers.
import http from 'node:http';
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.BROWSER_PATH || '/usr/bin/firefox-esr';

export async function launch(hosts = []) {
  const chromium = /chrom/.test(FIREFOX);
  return puppeteer.launch({
    browser: chromium ? 'chrome' : 'firefox',
    executablePath: FIREFOX,
    headless: true,
    protocolTimeout: 600000,
    args: chromium ? ['--no-sandbox', ...(hosts.length ? ['--host-resolver-rules=' + hosts.map((h) => `MAP ${h} 127.0.0.1`).join(',')] : [])] : [],
    // Resolve the given host names to 127.0.0.1 (for TLD-dependent detection; no other network).
    // HTTPS-First would upgrade http://site.<tld>/ to https: keep plain http.
    extraPrefsFirefox: hosts.length ? {
      'network.dns.localDomains': hosts.join(','),
      'dom.security.https_first': false,
      'dom.security.https_first_pbm': false,
      'dom.security.https_first_schemeless': false,
      'dom.security.https_only_mode': false,
    } : {},
  });
}

// routes: Map path -> {body: Buffer, type: string}
export function startServer(routes) {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    const r = routes.get(path);
    if (!r) { res.writeHead(404, {'Content-Type': 'text/plain'}); res.end('not found'); return; }
    res.writeHead(200, {'Content-Type': r.type, 'Content-Length': r.body.length, 'Cache-Control': 'no-store'});
    res.end(r.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export function origin(server) {
  return `http://127.0.0.1:${server.address().port}`;
}
