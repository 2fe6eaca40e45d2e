// Encode strings in Firefox through URL query parsing in a document of each encoding:
// <a>.href = "http://x/?" + s, then read the serialized query (percent-encoded bytes).
// Usage: node encode.mjs CASEDIR OUTDIR
import fs from 'node:fs';
import path from 'node:path';
import {launch, startServer, origin} from './lib.mjs';

const [caseDir = 'out/enc_cases', outDir = 'out/firefox_enc'] = process.argv.slice(2);
const BATCH = 20000;
fs.mkdirSync(outDir, {recursive: true});
const routes = new Map();
const server = await startServer(routes);
const browser = await launch();
const version = await browser.version();
const page = await browser.newPage();

function encodeBatch(strings) {
  const a = document.createElement('a');
  const out = [];
  for (const s of strings) {
    a.href = 'http://x/?' + s;
    const h = a.href;
    out.push(h.slice(h.indexOf('?') + 1));
  }
  return out;
}

for (const file of fs.readdirSync(caseDir).filter((f) => f.endsWith('.json')).sort()) {
  const doc = JSON.parse(fs.readFileSync(path.join(caseDir, file), 'utf8'));
  const route = '/doc/' + doc.encoding;
  routes.set(route, {body: Buffer.from('<!doctype html><title>encoder</title>'), type: 'text/html; charset=' + doc.encoding});
  const t0 = Date.now();
  await page.goto(origin(server) + route);
  const charset = await page.evaluate(() => document.characterSet);
  const results = [];
  for (let i = 0; i < doc.strings.length; i += BATCH) {
    results.push(...await page.evaluate(encodeBatch, doc.strings.slice(i, i + BATCH)));
  }
  fs.writeFileSync(path.join(outDir, file), JSON.stringify({encoding: doc.encoding, browser: version, document_charset: charset, results}));
  console.log(`${doc.encoding}: ${results.length} encoded in ${Date.now() - t0} ms (document.characterSet=${charset})`);
}
await browser.close();
server.close();
