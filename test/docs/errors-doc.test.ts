// docs/errors.md and the error table must say the same thing.
// (That src/ raises only table codes is enforced by the compiler: `fail` accepts only ErrorCode.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { ERRORS } from '../../src/domain/errors.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const rows = new Map([...doc.matchAll(/^\| `([a-z-]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]));

it('documents every code of the error table with its status', () => {
  for (const [code, row] of Object.entries(ERRORS)) assert.equal(rows.get(code), row.status, `docs/errors.md: ${code}`);
});

it('documents no code that the table does not have', () => {
  for (const code of rows.keys()) assert.ok(code in ERRORS, `docs/errors.md lists unknown code ${code}`);
});
