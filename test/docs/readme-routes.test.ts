// The README's route table and the route table of src/http/rest/routes.ts must list the same routes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { bindRoutes } from '../../src/http/rest/route.js';
import { ROUTES } from '../../src/http/rest/routes.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const documented = new Set([...readme.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`));
const served = new Set([...bindRoutes(ROUTES).map((b) => `${b.route.method} ${b.path}`), 'GET /v1/openapi.json']);

it('documents every served route in the README route table', () => {
  const missing = [...served].filter((r) => !documented.has(r));
  assert.deepEqual(missing, []);
});

it('documents no route that is not served', () => {
  const extra = [...documented].filter((r) => !served.has(r));
  assert.deepEqual(extra, []);
});
