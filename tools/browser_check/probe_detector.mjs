// Probe how many bytes Firefox's detector reads for an unlabeled text/html page: a head that
// chardetng alone calls windows-1251 (Russian text, inside the first 1024 bytes), then P bytes of
// ASCII padding, then ~29 KB of French text in windows-1252 that flips chardetng over the whole
// body to windows-1252. Variants: sent at once, or with a 1.5 s pause after the first 1100 bytes.
// Usage: node probe_detector.mjs
import http from 'node:http';
import {launch} from './lib.mjs';

const enc1251 = (s) => Buffer.from([...s].map((ch) => {
  const c = ch.codePointAt(0);
  if (c < 0x80) return c;
  if (c >= 0x410 && c <= 0x44f) return c - 0x410 + 0xc0;
  throw new Error('no mapping ' + ch);
}));
const latin1 = (s) => Buffer.from(s, 'latin1'); // the French text only uses Latin-1 letters
const head = Buffer.concat([Buffer.from('<!doctype html><title>t</title><p>'),
  enc1251('Привет, как дела? Это тестовый текст на русском языке, который описывает погоду и новости. '.repeat(8))]);
const tail = latin1("Le café est très bon à Paris, où l'été est chaud. Ça va très bien, merci. Déjà vu, naïve élève. ".repeat(300));
const pads = [0, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20];
const server = http.createServer(async (req, res) => {
  const u = new URL(req.url, 'http://127.0.0.1');
  const body = Buffer.concat([head, Buffer.alloc(Number(u.searchParams.get('pad')), 0x20), tail]);
  res.writeHead(200, {'Content-Type': 'text/html', 'Content-Length': body.length});
  if (u.searchParams.has('slow')) {
    res.write(body.subarray(0, 1100));
    await new Promise((r) => setTimeout(r, 1500));
    res.end(body.subarray(1100));
  } else {
    res.end(body);
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await launch();
const page = await browser.newPage();
for (const pad of pads) {
  for (const slow of ['', '&slow']) {
    await page.goto(`http://127.0.0.1:${server.address().port}/?pad=${pad}${slow}`, {waitUntil: 'load', timeout: 60000});
    await new Promise((r) => setTimeout(r, 300));
    console.log(`head ${head.length} B, padding ${pad} B, tail ${tail.length} B${slow ? ', paused after 1100 B' : ''}: ` +
      await page.evaluate(() => document.characterSet));
  }
}
await browser.close();
server.close();
