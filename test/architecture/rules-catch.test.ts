// Each layer rule catches what it forbids: a copy of src/ with one forbidden import planted per rule, checked with
// the project's own dependency-cruiser configuration, must be refused by every rule, each naming its planted
// import. A rule that no longer matches what it is meant to (a renamed folder, a path pattern gone stale) fails
// here instead of passing silently on the real tree (test/architecture/layers.test.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';

const ROOT = join(import.meta.dirname, '../..');
const rules = (createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: { name: string }[] }).forbidden;

/** For each rule: the file the forbidden import is planted in, and what it imports. */
const PLANTED: Record<string, [file: string, imports: string]> = {
  'no-cycles': ['src/http/context.ts', './app.js'],
  'domain-is-pure': ['src/domain/kinds.ts', '../store/store.js'],
  'search-is-shared-logic': ['src/search/text.ts', '../http/context.js'],
  'sparql-reads-the-store-interface': ['src/sparql/query.ts', '../store/sqlite/index.js'],
  'store-interface-knows-no-backend': ['src/store/paging.ts', './sqlite/index.js'],
  'backends-stay-apart': ['src/store/sqlite/queries.ts', '../postgres/queries.js'],
  'backends-stay-apart-pg': ['src/store/postgres/queries.ts', '../sqlite/queries.js'],
  'http-talks-to-the-interface': ['src/http/url.ts', '../cli/errors.js'],
  'http-sees-only-the-store-interface': ['src/http/url.ts', '../store/paging.js'],
  'writes-go-through-the-pipeline': ['src/http/rest/handlers/meta.ts', '../../guard.js'],
  'one-write-path': ['src/http/action-api/writes.ts', '../write/commit.js'],
  'rooms-meet-at-doors': ['src/http/action-api/reads.ts', '../rest/handlers/changes.js'],
  'kernel-knows-rooms-by-their-doors': ['src/http/lookup.ts', './sparql/index.js'],
  'app-mounts-rooms-by-their-doors': ['src/http/app.ts', './rest/routes.js'],
  'ui-talks-to-the-api': ['src/ui/page.ts', '../store/store.js'],
  'http-mounts-the-ui-whole': ['src/http/url.ts', '../ui/messages.js'],
};

const dir = mkdtempSync(join(tmpdir(), 'entia-rules-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('every layer rule refuses the import planted against it', () => {
  assert.deepEqual(rules.map((r) => r.name).sort(), Object.keys(PLANTED).sort(), 'one planted import per rule of .dependency-cruiser.cjs');
  cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  for (const file of ['tsconfig.json', '.dependency-cruiser.cjs', 'package.json']) cpSync(join(ROOT, file), join(dir, file));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [file, imports] of Object.values(PLANTED)) {
    const path = join(dir, file);
    writeFileSync(path, `import '${imports}';\n${readFileSync(path, 'utf8')}`);
  }
  let output = '';
  try {
    execFileSync(join(ROOT, 'node_modules/.bin/depcruise'), ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    output = String((e as { stdout?: string }).stdout ?? '');
  }
  for (const [rule, [file]] of Object.entries(PLANTED)) {
    assert.ok(output.split('\n').some((line) => line.includes(`error ${rule}: ${file} →`)), `${rule} did not refuse its planted import in ${file}:\n${output}`);
  }
});
