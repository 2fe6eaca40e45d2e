// Serve each document with a charset-less Content-Type from 127.0.0.1 and record Firefox's
// document.characterSet after load (read twice, 300 ms apart, to catch a detector reload).
// Usage: node sniff.mjs CASES.json OUT.json
import fs from 'node:fs';
import {launch, startServer, origin} from './lib.mjs';

const [casesFile = 'out/sniff_cases.json', outFile = 'out/sniff_firefox.json'] = process.argv.slice(2);
const only = process.env.ONLY; // optional: 'html5lib' or 'corpus'
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8')).filter((c) => !only || c.set === only);
const routes = new Map(cases.map((c) => [c.route, {body: Buffer.from(c.body_b64, 'base64'), type: c.type}]));
const server = await startServer(routes);
const browser = await launch([...new Set(cases.filter((c) => c.host).map((c) => c.host))]);
const version = await browser.version();
const page = await browser.newPage();
// Some html5lib cases call alert(): dismiss dialogs so that the load event can fire.
page.on('dialog', (d) => d.dismiss().catch(() => {}));
const results = {};
for (const c of cases) {
  const url = (c.host ? `http://${c.host}:${server.address().port}` : origin(server)) + c.route;
  try {
    await page.goto(url, {waitUntil: 'load', timeout: 30000});
    const first = await page.evaluate(() => document.characterSet);
    await new Promise((r) => setTimeout(r, 300));
    const second = await page.evaluate(() => document.characterSet);
    results[c.route] = {url, characterSet: second, first};
  } catch (e) {
    results[c.route] = {url, error: String(e)};
  }
}
fs.writeFileSync(outFile, JSON.stringify({browser: version, port: server.address().port, results}, null, 1));
console.log(`${cases.length} documents loaded in ${version}`);
await browser.close();
server.close();
