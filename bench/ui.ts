// The web interface's heaviest page: Q31 (Belgium, from the Wikidata sample) imported into a fresh SQLite
// store, loaded again and again in headless Chromium (Debian's, through playwright-core), against the baseline
// of the same browser loading the same entity's JSON from the API in the same run. Reports medians of the
// time to first contentful paint and to the load event, and the server's time for the page's HTML.
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

async function loadTimes(browser: Browser, url: string): Promise<Load[]> {
  const times: Load[] = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    times.push(await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { fcp: paint ? paint.startTime : nav.loadEventEnd, load: nav.loadEventEnd };
    }));
    await context.close();
  }
  return times;
}

async function serverTimes(url: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    const started = performance.now();
    await (await fetch(url)).arrayBuffer();
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
  const html = await serverTimes(page);
  const api = await serverTimes(json);
  const bytes = (await (await fetch(page)).arrayBuffer()).byteLength;
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const rows = [
    ['Q31 page in Chromium, first contentful paint', ms(median(pageLoads.map((t) => t.fcp))), ''],
    ['Q31 page in Chromium, load event', ms(median(pageLoads.map((t) => t.load))),
      `${(median(pageLoads.map((t) => t.load)) / median(jsonLoads.map((t) => t.load))).toFixed(1)}× the JSON`],
    ['Q31 JSON in Chromium, load event (baseline)', ms(median(jsonLoads.map((t) => t.load))), ''],
    ['Q31 page HTML from the server', ms(median(html)), `${(median(html) / median(api)).toFixed(1)}× the JSON`],
    ['Q31 JSON from the API (baseline)', ms(median(api)), ''],
  ];
  console.log(`| measure (median of ${LOADS}, ${(bytes / 1024).toFixed(0)} KB of HTML) | time | ratio |\n|---|---|---|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
