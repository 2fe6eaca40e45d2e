// Run the web-platform-tests' own JavaScript ONCE to list their URL-query and form expectations,
// and write them as compact JSON to tests/data/wpt-expectations/query-form.json.
//
//   node tools/wpt_query_expectations.mjs
//
// The tests compute their expectations from the index tables next to them (jis0208_index.js,
// ...) with their own encoder functions (eucjp-encoder.js, ...); this harness loads those files
// and the page's inline scripts into a Node vm context with stub DOM/testharness functions, runs
// the shared setup code (encoding/resources/encode-{href,form}-common.js, html/.../resolve-url.js)
// and records each (input, expected) pair the test would assert. Nothing is computed here.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const WPT = path.join(REPO, "tests", "data", "wpt");
const OUT = path.join(REPO, "tests", "data", "wpt-expectations", "query-form.json");
const rel = (p) => path.relative(WPT, p).split(path.sep).join("/");

function contentType(file) {
  const headers = file + ".headers";
  if (fs.existsSync(headers)) {
    for (const line of fs.readFileSync(headers, "latin1").split(/\r?\n/)) {
      const m = /^content-type:\s*(.*)$/i.exec(line);
      if (m) return m[1].trim();
    }
  }
  return "text/html";
}

// <script src=...> and inline <script> bodies in document order.
function scripts(html) {
  const out = [];
  const re = /<script(?:\s+src="([^"]+)")?[^>]*>([\s\S]*?)<\/script>/g;
  let m;
  while ((m = re.exec(html))) out.push(m[1] ? { src: m[1] } : { code: m[2] });
  return out;
}

function element() {
  const el = { children: [], attrs: {}, style: {} };
  el.appendChild = (c) => el.children.push(c);
  el.setAttribute = (k, v) => { el.attrs[k] = v; };
  el.getAttribute = (k) => el.attrs[k];
  return el;
}

function context(charset) {
  const noop = () => null;
  const body = element();
  const ctx = {
    alert: (m) => { throw new Error(m); },
    console,
    subsetTest: noop, test: noop, async_test: noop, promise_test: noop,
    setup: (f) => { if (typeof f === "function") f(); },
    addEventListener: noop,
    document: {
      body, createElement: element,
      querySelector: (sel) => (sel === "meta[charset]" ? { getAttribute: () => charset } : null),
      getElementsByTagName: () => [],
    },
  };
  ctx.window = ctx;
  return vm.createContext(ctx);
}

// legacy-mb-*/*/*-encode-{href,form}*.html: the code points and expected strings their
// common setup code builds (variable `codepoints`: [{cp, expected}]).
function legacyPage(file) {
  const html = fs.readFileSync(file, "utf8");
  const charset = /<meta charset="?([^">\s]+)"?/i.exec(html)[1];
  const ctx = context(charset);
  for (const s of scripts(html)) {
    if (s.src && s.src.startsWith("/")) continue; // testharness, subset-tests: stubbed
    const code = s.src ? fs.readFileSync(path.join(path.dirname(file), s.src), "utf8") : s.code;
    vm.runInContext(code, ctx, { filename: s.src || rel(file) });
  }
  const kind = /-encode-form/.test(file) ? "form" : "href";
  const cases = ctx.codepoints.map((c) => [c.cp, c.expected]);
  // The test compares normalizeStr(actual) with normalizeStr(expected): keep its source and a
  // few of its results, so the Python test can use (and check) the same comparison.
  const normalize = ctx.normalizeStr ? ctx.normalizeStr.toString() : null;
  const samples = normalize ? [...cases.slice(0, 3).map((c) => c[1]), "%1B(J\\~s%1B(B", "%26%2365533%3B", "%E2%82"]
    .map((s) => [s, ctx.normalizeStr(s)]) : [];
  return {
    test: rel(file), kind, content_type: contentType(file), charset,
    separator: kind === "form" ? ctx.separator : null, normalize, normalize_samples: samples, cases,
  };
}

// encoding/iso-2022-jp-encoder.html: encode(input, output, desc) assertions.
function isoEncoderPage(file) {
  const html = fs.readFileSync(file, "utf8");
  const code = scripts(html).filter((s) => s.code).map((s) => s.code).join("\n");
  const cases = [];
  let href = null;
  const ctx = context("iso-2022-jp");
  ctx.test = (f) => f();
  ctx.document.createElement = () => ({
    set href(v) { href = v; },
    get search() { return { substr: () => null }; },
  });
  ctx.assert_equals = (actual, expected) => cases.push([href.slice("https://example.com/?".length), expected]);
  vm.runInContext(code, ctx);
  return { test: rel(file), kind: "href-string", content_type: contentType(file), charset: "iso-2022-jp", cases };
}

// iso2022jp-encode-form-errors-stateful.html: one form value and the bytes it must give.
function statefulFormPage(file) {
  const html = fs.readFileSync(file, "utf8");
  const value = vm.runInNewContext(/value: ('[^']*')/.exec(html)[1]);
  const bytes = vm.runInNewContext(/assert_equals\(\s*iso2022jp,\s*('[^']*')\)/.exec(html)[1]);
  return { test: rel(file), kind: "form-bytes", content_type: "text/html; charset=utf-8",
           charset: "utf-8", accept_charset: /acceptCharset: '([^']+)'/.exec(html)[1],
           cases: [[value, bytes]] };
}

// html/infrastructure/urls/resolving-urls/query-encoding/*.html: resolve-url.js's
// "hyperlink-search" and "scheme" tests (URL resolution against the document), with the
// page's encoding; each records the input URL and the substring the result must contain.
function resolveUrlPage(file) {
  const dir = path.dirname(file);
  const html = fs.readFileSync(file);
  const text = html[0] === 0xff ? html.toString("utf16le")
    : html[0] === 0xfe ? Buffer.from(html.subarray(0, html.length & ~1)).swap16().toString("utf16le")
    : html.toString("latin1");
  const src = /resolve-url\.js\?encoding=([^&"]+)/.exec(text.replace(/\u0000/g, ""));
  const encoding = src ? src[1] : null;
  if (!encoding) return null;
  const js = fs.readFileSync(path.join(dir, "resources", "resolve-url.js"), "utf8").replace("{{GET[encoding]}}", encoding);
  const cases = [];
  let input = null;
  const ctx = context(encoding);
  ctx.onload = null;
  ctx.subsetTestByKey = (key, kind, fn) => {
    if (key !== "hyperlink-search" && key !== "scheme") return;
    fn.call({ step_func: (f) => f, add_cleanup: () => null });
  };
  ctx.document.createElement = () => {
    const el = element();
    el.setAttribute = (k, v) => { input = v; };
    Object.defineProperty(el, "href", { set(v) { input = v; }, get() { return ""; } });
    Object.defineProperty(el, "search", { set(v) { input = input + v; }, get() { return ""; } });
    el.getAttribute = () => "";
    return el;
  };
  ctx.assert_true = (ok, message) => {
    const m = /expected substring (\S+) got/.exec(message);
    if (m && !cases.some((c) => c[0] === input && c[1] === m[1])) cases.push([input, m[1]]);
  };
  ctx.done = () => null;
  vm.runInContext(js, ctx);
  ctx.onload();
  const page = rel(file);
  return { test: page, kind: "resolve", content_type: contentType(file), charset: encoding,
           base: `http://web-platform.test:8000/${page}`, cases };
}

// location.sub.html / attributes.sub.html: "?\u00FF" resolved in a windows-1252, windows-1251
// (variant x-cp1251) or UTF-8 document; expected(characterSet) gives the search string.
function subPages() {
  const out = [];
  const dir = path.join(WPT, "html/infrastructure/urls/resolving-urls/query-encoding");
  for (const name of ["attributes.sub.html", "location.sub.html"]) {
    const html = fs.readFileSync(path.join(dir, name), "utf8");
    const expected = vm.runInNewContext("(" + /function expected\(encoding\) \{[\s\S]*?\n\}/.exec(html)[0] + ")");
    for (const variant of html.matchAll(/name="?variant"? content="\?encoding=([^"]+)"/g)) {
      const characterSet = { "windows-1252": "windows-1252", "x-cp1251": "windows-1251", utf8: "UTF-8" }[variant[1]];
      out.push({ test: `html/infrastructure/urls/resolving-urls/query-encoding/${name}?encoding=${variant[1]}`,
                 kind: "resolve", content_type: `text/html; charset=${variant[1]}`, charset: variant[1],
                 base: `http://web-platform.test:8000/common/blank.html`,
                 cases: [["/common/blank.html?\u00FF", expected(characterSet)]] });
    }
  }
  return out;
}

const pages = [];
for (const family of fs.readdirSync(path.join(WPT, "encoding")).filter((d) => d.startsWith("legacy-mb-")).sort()) {
  for (const enc of fs.readdirSync(path.join(WPT, "encoding", family)).sort()) {
    const dir = path.join(WPT, "encoding", family, enc);
    for (const name of fs.readdirSync(dir).sort()) {
      if (!/-encode-(href|form)[^.]*\.html$/.test(name)) continue;
      const file = path.join(dir, name);
      pages.push(/errors-stateful/.test(name) ? statefulFormPage(file) : legacyPage(file));
    }
  }
}
pages.push(isoEncoderPage(path.join(WPT, "encoding", "iso-2022-jp-encoder.html")));
const qdir = path.join(WPT, "html/infrastructure/urls/resolving-urls/query-encoding");
for (const name of fs.readdirSync(qdir).sort()) {
  if (/^(utf-|windows-).*\.html$/.test(name)) pages.push(resolveUrlPage(path.join(qdir, name)));
}
pages.push(...subPages());

// Pages that share their list of cases (label aliases, href vs form) store it once.
const total = pages.reduce((n, p) => n + p.cases.length, 0);
const seen = new Map();
pages.forEach((p, i) => {
  const key = JSON.stringify(p.cases);
  if (seen.has(key)) { p.cases_of = seen.get(key); delete p.cases; } else seen.set(key, i);
});
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, "[\n" + pages.map((p) => JSON.stringify(p)).join(",\n") + "\n]\n");
console.log(`${pages.length} pages, ${total} expectations -> ${rel(OUT)}`);
