// Decode every generated input in Firefox with TextDecoder(label, {ignoreBOM: true}) (replacement
// mode), or through XHR with an overridden charset for "replacement" (TextDecoder rejects it).
// Usage: node decode.mjs CASEDIR OUTDIR
// Writes OUTDIR/<file>.json: {"encoding", "browser", "results": [space-separated hex code points]}.
import fs from 'node:fs';
import path from 'node:path';
import {launch, startServer, origin} from './lib.mjs';

const [caseDir = 'out/cases', outDir = 'out/firefox'] = process.argv.slice(2);
const BATCH = 4000;
fs.mkdirSync(outDir, {recursive: true});

const server = await startServer(new Map([
  ['/blank', {body: Buffer.from('<!doctype html><meta charset=utf-8><title>blank</title>'), type: 'text/html; charset=utf-8'}],
]));
const browser = await launch();
const version = await browser.version();
const page = await browser.newPage();
await page.goto(origin(server) + '/blank');

function decodeBatchTextDecoder(label, hexes) {
  const dec = new TextDecoder(label, {ignoreBOM: true});
  const out = [];
  for (const h of hexes) {
    const bytes = new Uint8Array(h.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(h.substr(2 * i, 2), 16);
    const s = dec.decode(bytes);
    const cps = [];
    for (const ch of s) cps.push(ch.codePointAt(0).toString(16));
    out.push(cps.join(' '));
  }
  return out;
}

async function decodeBatchXhr(label, hexes) {
  const out = [];
  for (const h of hexes) {
    const bytes = new Uint8Array(h.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(h.substr(2 * i, 2), 16);
    const url = URL.createObjectURL(new Blob([bytes]));
    const s = await new Promise((resolve, reject) => {
      const x = new XMLHttpRequest();
      x.open('GET', url);
      x.overrideMimeType('text/plain; charset=' + label);
      x.onload = () => resolve(x.responseText);
      x.onerror = reject;
      x.send();
    });
    URL.revokeObjectURL(url);
    const cps = [];
    for (const ch of s) cps.push(ch.codePointAt(0).toString(16));
    out.push(cps.join(' '));
  }
  return out;
}

for (const file of fs.readdirSync(caseDir).filter((f) => f.endsWith('.json')).sort()) {
  const doc = JSON.parse(fs.readFileSync(path.join(caseDir, file), 'utf8'));
  const t0 = Date.now();
  const results = [];
  let resolvedName = null;
  try {
    if (doc.mode === 'textdecoder') {
      resolvedName = await page.evaluate((l) => new TextDecoder(l).encoding, doc.label);
    }
    for (let i = 0; i < doc.cases.length; i += BATCH) {
      const batch = doc.cases.slice(i, i + BATCH);
      const r = doc.mode === 'xhr'
        ? await page.evaluate(decodeBatchXhr, doc.label, batch)
        : await page.evaluate(decodeBatchTextDecoder, doc.label, batch);
      results.push(...r);
    }
    fs.writeFileSync(path.join(outDir, file), JSON.stringify({encoding: doc.encoding, browser: version, textdecoder_encoding: resolvedName, results}));
    console.log(`${doc.encoding}: ${results.length} decoded in ${Date.now() - t0} ms (TextDecoder.encoding=${resolvedName})`);
  } catch (e) {
    console.log(`${doc.encoding}: FAILED ${e}`);
  }
}
await browser.close();
server.close();
