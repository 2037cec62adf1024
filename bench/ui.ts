// The web interface's heaviest page: Q31 (Belgium, from the Wikidata sample) imported into a fresh SQLite
// store, loaded again and again in headless Chromium (Debian's, through playwright-core), against the baseline
// of the same browser loading the same entity's JSON from the API in the same run. Reports medians of the
// time to first contentful paint and to the load event, the server's time for the page's HTML (kept by the page
// cache, and rendered anew), and its time to render the diff of Q31's first and last revisions (issue #36: under
// 300 ms), after an edit of each kind of part.
//
//   node --import tsx bench/ui.ts [--loads 15] [--chromium /usr/bin/chromium]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { flagReader } from './args.js';
import { startEntia } from './servers.js';

const ROOT = join(import.meta.dirname, '..');
const { value, num } = flagReader(process.argv.slice(2));
const LOADS = num('loads', 15);
const CHROMIUM = value('chromium') ?? process.env.ENTIA_TEST_CHROMIUM ?? '/usr/bin/chromium';
const SAMPLES = process.env.ENTIA_WIKIDATA_SAMPLES ?? join(ROOT, '../shared/data/wikidata');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Load { fcp: number; load: number }

async function loadTimes(browser: Browser, url: string, rendered = false): Promise<Load[]> {
  const times: Load[] = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(rendered ? `${url}?bench=${i}` : url, { waitUntil: 'load' });
    times.push(await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { fcp: paint ? paint.startTime : nav.loadEventEnd, load: nav.loadEventEnd };
    }));
    await context.close();
  }
  return times;
}

/** `rendered`: a new address each time (a query parameter pages ignore), so the page cache never answers. */
async function serverTimes(url: string, rendered = false): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const started = performance.now();
    await (await fetch(rendered ? `${url}?bench=${i}` : url)).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

const dir = mkdtempSync(join(tmpdir(), 'entia-bench-ui-'));
const db = join(dir, 'ui.db');
execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'import', join(SAMPLES, 'Q31.json')],
  { cwd: ROOT, env: { ...process.env, ENTIA_DB: db }, stdio: 'ignore' });
const server = await startEntia(db);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu',
  '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  const page = `${server.url}/Q31`;
  const json = `${server.url}/v1/entities/items/Q31`;
  await loadTimes(browser, page); // warm-up: the server's caches and the browser's
  const pageLoads = await loadTimes(browser, page);
  const jsonLoads = await loadTimes(browser, json);
  const renderedLoads = await loadTimes(browser, page, true);
  const html = await serverTimes(page);
  const htmlRendered = await serverTimes(page, true);
  const api = await serverTimes(json);
  const bytes = (await (await fetch(page)).arrayBuffer()).byteLength;
  // A second revision that changes a label, a statement and a sitelink: the diff then has rows of each kind.
  const q31 = await (await fetch(json)).json() as { statements: Record<string, { id: string }[]> };
  const [firstProperty] = Object.keys(q31.statements);
  const edit = await fetch(json, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ patch: [
    { op: 'replace', path: '/labels/en', value: 'Belgium (edited)' },
    { op: 'remove', path: `/statements/${firstProperty}/0` },
    { op: 'remove', path: '/sitelinks/enwiki' }], comment: 'bench: a second revision' }) });
  if (!edit.ok) throw new Error(`the edit for the diff failed: ${edit.status} ${await edit.text()}`);
  const history = await (await fetch(`${json}/history`)).json() as { revisions: { id: number }[] };
  const [last, first] = [history.revisions[0].id, history.revisions.at(-1)!.id];
  const diff = await serverTimes(`${page}/diff/${first}/${last}`, true);
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const rows = [
    ['Q31 page in Chromium, first contentful paint', ms(median(pageLoads.map((t) => t.fcp))), ''],
    ['Q31 page in Chromium, load event', ms(median(pageLoads.map((t) => t.load))),
      `${(median(pageLoads.map((t) => t.load)) / median(jsonLoads.map((t) => t.load))).toFixed(1)}× the JSON`],
    ['Q31 page in Chromium, load event, the page rendered anew (as after an edit)', ms(median(renderedLoads.map((t) => t.load))),
      `${(median(renderedLoads.map((t) => t.load)) / median(jsonLoads.map((t) => t.load))).toFixed(1)}× the JSON`],
    ['Q31 JSON in Chromium, load event (baseline)', ms(median(jsonLoads.map((t) => t.load))), ''],
    ['Q31 page HTML from the server, kept since the last edit', ms(median(html)), `${(median(html) / median(api)).toFixed(1)}× the JSON`],
    ['Q31 page HTML from the server, rendered', ms(median(htmlRendered)), `${(median(htmlRendered) / median(api)).toFixed(1)}× the JSON`],
    ['Q31 JSON from the API (baseline)', ms(median(api)), ''],
    ['Q31 diff of its first and last revisions, HTML from the server', ms(median(diff)), 'goal < 300 ms'],
  ];
  console.log(`| measure (median of ${LOADS}, ${(bytes / 1024).toFixed(0)} KB of HTML) | time | ratio |\n|---|---|---|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
