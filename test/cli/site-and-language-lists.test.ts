// The site table and term languages are refreshed from Wikimedia's own lists by two scripts; and with the
// lists as shipped, importing every Wikidata sample beside this checkout drops no term and no sitelink.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ENTIA } from '../helpers/entia-command.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'entia-lists-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const script = (name: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', name), ...args], { cwd: ROOT });

describe('site table', () => {
  it('the shipped sites.json is what the script writes', async () => {
    await script('generate-sites.ts', '--check');
  });

  it('is generated from a saved site matrix: every public wiki, by database name', async () => {
    const matrix = { sitematrix: {
      count: 3,
      0: { code: 'bs', name: 'bosanski', site: [
        { url: 'https://bs.wikipedia.org', dbname: 'bswiki', code: 'wiki', sitename: 'Wikipedia' },
        { url: 'https://bs.wikinews.org', dbname: 'bswikinews', code: 'wikinews', sitename: 'Wikivijesti', closed: true },
      ] },
      specials: [
        { url: 'https://commons.wikimedia.org', dbname: 'commonswiki', code: 'commons' },
        { url: 'https://internal.wikimedia.org', dbname: 'internalwiki', code: 'internal', private: true },
      ],
    } };
    writeFileSync(join(dir, 'matrix.json'), JSON.stringify(matrix));
    await script('generate-sites.ts', '--sitematrix', join(dir, 'matrix.json'), '--out', join(dir, 'sites.json'));
    const written = JSON.parse(readFileSync(join(dir, 'sites.json'), 'utf8'));
    assert.deepEqual(written.sites, {
      bswiki: { group: 'wikipedia', language: 'bs', url: 'https://bs.wikipedia.org/wiki/$1' },
      bswikinews: { group: 'wikinews', language: 'bs', url: 'https://bs.wikinews.org/wiki/$1' },
      commonswiki: { group: 'commons', language: 'en', url: 'https://commons.wikimedia.org/wiki/$1' },
    });
    assert.match(written.$source, /^Wikimedia site matrix \(action=sitematrix\), saved \d{4}-\d{2}-\d{2}$/);
  });
});

describe('term languages', () => {
  it('are generated from a saved wbcontentlanguages answer, with mul', async () => {
    const answer = { query: { wbcontentlanguages: { ak: { code: 'ak' }, en: { code: 'en' }, tokipona: { code: 'tokipona' } } } };
    writeFileSync(join(dir, 'languages.json'), JSON.stringify(answer));
    await script('generate-languages.ts', '--from', join(dir, 'languages.json'), '--out', join(dir, 'out.json'));
    const written = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    assert.deepEqual(written.termLanguages, ['ak', 'en', 'mul', 'tokipona']);
    assert.ok(written.fallbacks && written.variants, 'the rest of the file is kept');
  });
});

/** The Wikidata samples (CC0) the project is developed against; CI has them beside the checkout. */
const SAMPLES = process.env.ENTIA_WIKIDATA_SAMPLES ?? join(ROOT, '../shared/data/wikidata');
/** Skipped only on a checkout without them; where ENTIA_WIKIDATA_SAMPLES names them (CI), missing files fail. */
const skipSamples = !existsSync(SAMPLES) && process.env.ENTIA_WIKIDATA_SAMPLES === undefined;

describe('importing the Wikidata samples', () => {
  it('drops no term and no sitelink of any sample file', { skip: skipSamples && `no samples at ${SAMPLES}` }, async () => {
    const files = ['short_stream.json.bz2', 'sample_wikidata_items.json.bz2', 'Q31.json', 'Q8502.json'];
    for (const file of files) {
      const db = join(dir, `${file}.db`);
      const { stdout } = await run(process.execPath, [...ENTIA, 'import', join(SAMPLES, file)],
        { env: { ...process.env, ENTIA_DB: db }, maxBuffer: 1 << 26 });
      assert.match(stdout, /dropped 0 terms, 0 sitelinks,/, `${file}: ${stdout}`);
    }
  });
});
