// A redirect made from the command line (`entia redirect`) and one made through the Action API
// (wbcreateredirect) follow the same rules (docs/api.md §9.1): each refusal of one is a refusal of the other,
// named in each one's words, and writes nothing; an empty item becomes a redirect either way.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { ENTIA } from '../helpers/entia-command.js';

let s: TestServer;
before(async () => { s = await startServer(); });
after(async () => { await s.close(); });

function entia(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => execFile(process.execPath, [...ENTIA, ...args], { env: { ...process.env, ENTIA_DB: s.dbPath } },
    (error, stdout, stderr) => done({ code: error ? (error as { code?: number }).code ?? 1 : 0, stdout, stderr })));
}

async function wbcreateredirect(from: string, to: string): Promise<{ error?: { code: string }; success?: number }> {
  const token = (await (await fetch(`${s.url}/w/api.php?action=query&meta=tokens&format=json`)).json()).query.tokens.csrftoken;
  const res = await fetch(`${s.url}/w/api.php`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'wbcreateredirect', from, to, token, format: 'json' }),
  });
  return res.json();
}

const item = async (body: object = {}) => (await s.post('/v1/entities/items', { item: body })).body.id as string;
/** Each entity's latest revision, as its ETag says (a redirect's read answers 308 and has none). */
const heads = async (ids: string[]) => Promise.all(ids.map(async (id) => {
  const res = await s.get(`/v1/entities/${id.startsWith('P') ? 'properties' : 'items'}/${id}`);
  return `${id} ${res.status} ${res.headers.get('etag')}`;
}));

describe('entia redirect and wbcreateredirect', () => {
  it('refuse the same redirects, each in its own words, and write nothing', async () => {
    const [empty, full, target, redirected] = [await item(), await item({ labels: { en: 'has a label' } }), await item(), await item()];
    const property = (await s.post('/v1/entities/properties', { property: { data_type: 'string' } })).body.id as string;
    assert.equal((await wbcreateredirect(redirected, target)).success, 1);
    const cases: [from: string, to: string, apiCode: string, cliMessage: RegExp][] = [
      [full, target, 'not-empty', new RegExp(`${full} is not empty`)],
      ['Q999999999', target, 'no-such-entity', /Q999999999 does not exist/],
      [empty, 'Q999999999', 'no-such-entity', /Q999999999 does not exist/],
      [empty, empty, 'cant-redirect-self', new RegExp(`${empty} cannot redirect to itself`)],
      [empty, property, 'target-is-incompatible', /only items can/],
      [property, target, 'target-is-incompatible', /only items can/],
      [empty, redirected, 'target-is-redirect', new RegExp(`${redirected} is itself a redirect`)],
    ];
    const involved = [empty, full, target, redirected, property];
    const before = await heads(involved);
    for (const [from, to, apiCode, cliMessage] of cases) {
      assert.equal((await wbcreateredirect(from, to)).error?.code, apiCode, `${from} → ${to}`);
      const cli = await entia(['redirect', from, to]);
      assert.equal(cli.code, 1, `${from} → ${to}: ${cli.stderr}`);
      assert.match(cli.stderr, cliMessage);
      assert.match(cli.stderr, /Nothing changed/);
    }
    assert.deepEqual(await heads(involved), before, 'no refused redirect wrote a revision');
    assert.equal((await s.get(`/v1/entities/items/${full}`)).status, 200);
  });

  it('make an empty item a redirect, either of them', async () => {
    const [a, b, target] = [await item(), await item(), await item({ labels: { en: 'the target' } })];
    assert.equal((await wbcreateredirect(a, target)).success, 1);
    const cli = await entia(['redirect', b, target]);
    assert.equal(cli.code, 0, cli.stderr);
    for (const id of [a, b]) {
      const res = await s.get(`/v1/entities/items/${id}`);
      assert.equal(res.status, 308, id);
      assert.match(res.headers.get('location') ?? '', new RegExp(`/${target}$`));
    }
  });
});
