// `npm run bench:constraints`: the cost of property constraints (issue #37) on a generated Wikidata-shaped store.
// Constraints as Wikidata states them are added to the store's most used properties (single value, format and
// distinct values on strings and external ids, value type and item requires statement on item properties, range
// on quantities and times); then, each against a baseline from the same run:
//   - checking the typical item: CPU per check, against reading the item;
//   - enforce: CPU of the check an edit adds, against the edit itself (applyEdit of one new statement);
//   - `entia check-constraints` over the store: entities per second (the goal is absolute: ≥ 2,000/s).
//
//   npm run bench:constraints -- [--items 100000] [--seed 8] [--db FILE (a store loaded by an earlier run)] [--keep]
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flagReader } from './args.js';
import { importAll } from './bulk-load.js';
import { RESULTS_DIR } from './dataset.js';
import { typicalItem } from './targets.js';
import { constraintVocabulary } from '../src/domain/constraints/vocabulary.js';
import { checkEntity } from '../src/domain/constraints/check.js';
import { constraintCaches, constraintLookup, enforceConstraints } from '../src/http/constraints.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import type { Entity, Statement } from '../src/domain/entity.js';
import { buildApp } from '../src/http/app.js';
import { buildServices } from '../src/http/services.js';
import { DEFAULTS } from '../src/config.js';

const argv = process.argv.slice(2);
const flags = flagReader(argv);
const items = flags.num('items', 100_000);
const seed = flags.num('seed', 8);
const keep = argv.includes('--keep');
const db = flags.value('db') ?? join(RESULTS_DIR, `constraints-seed${seed}-items${items}.db`);

const META = { user: 'bench', comment: null, tags: [], bot: false };

async function main(): Promise<void> {
  if (!existsSync(db)) {
    console.error(`loading ${items} items into ${db}`);
    await importAll({ seed, items }, db);
  }
  const store = openSqliteStore({ path: db });
  const vocab = await stateConstraints(store);
  const vocabFile = join(RESULTS_DIR, 'constraints-vocabulary.json');
  writeFileSync(vocabFile, JSON.stringify({ properties: vocab.properties, types: vocab.types, items: vocab.items }));
  const { id } = typicalItem(seed, items);
  const read = await store.readEntity(id);
  if (read.status !== 'found') throw new Error(`${id} is not in the store`);
  const typical = read.entity;

  // Checking the typical item as a server does: a lookup per check over the process's caches (constraints and
  // links by revision), warm after the first.
  const caches = constraintCaches();
  const violations = await checkEntity(typical, constraintLookup(store, vocab, caches), vocab);
  const checkMs = await cpuMs(200, () => checkEntity(typical, constraintLookup(store, vocab, caches), vocab));
  const coldCheckMs = await cpuMs(50, () => checkEntity(typical, constraintLookup(store, vocab), vocab));
  const readMs = await cpuMs(2000, () => store.readEntity(id));

  // Enforce: the check of an edit's result, against the edit (a statement added or removed, written), on the
  // typical item as it is: the edits alternate between it and it with one statement more.
  const [property, group] = Object.entries(typical.statements)[0];
  const plus = withCopy(typical, property, group[0]);
  let current = read;
  const editMs = await cpuMs(200, async () => {
    const next = current.entity === typical ? plus : typical;
    const head = await store.applyEdit({ entity: next, previous: current, meta: META, checks: {} });
    current = { status: 'found', entity: next, head };
  });
  const enforceMs = await cpuMs(200, () => enforceConstraints({ constraints: 'enforce', constraintVocabulary: vocab }, store, caches, typical, plus));

  // The whole edit path, in process (Fastify's inject: routing, validation, the pipeline, the commit), with the
  // constraints reported only and enforced: a statement added to the typical item, then removed.
  const postMs = async (mode: 'report' | 'enforce') => {
    const app = buildApp({ store, services: buildServices({ ...DEFAULTS, log: false, db, sparql: 'off', constraints: mode, constraintVocabulary: vocab }) });
    const statement = { property: { id: property }, value: group[0].value };
    const pair = async () => {
      const added = await app.inject({ method: 'POST', url: `/v1/entities/items/${id}/statements`, payload: { statement } });
      if (added.statusCode !== 201) throw new Error(`POST answered ${added.statusCode}: ${added.body}`);
      const removed = await app.inject({ method: 'DELETE', url: `/v1/statements/${encodeURIComponent(added.json().id)}` });
      if (removed.statusCode !== 200) throw new Error(`DELETE answered ${removed.statusCode}`);
    };
    const ms = await cpuMs(100, pair) / 2;
    await app.close();
    return ms;
  };
  const reportEditMs = await postMs('report');
  const enforceEditMs = await postMs('enforce');
  await store.close();

  // The report over the whole store, as an operator runs it.
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'check-constraints'],
    { env: { ...process.env, ENTIA_DB: db, ENTIA_CONSTRAINTS_FILE: vocabFile }, maxBuffer: 2 ** 30, encoding: 'utf8' });
  const seconds = (Date.now() - started) / 1000;
  const reported = child.stdout.split('\n').filter(Boolean).length;
  // The command's own count and rate (its start-up, about a second of loading TypeScript, left out).
  const own = /(\d+) violations in (\d+) entities, ([\d.]+) s \((\d+) entities\/s\)/.exec(child.stderr);
  const figures = {
    date: new Date().toISOString().slice(0, 10), items, seed, typical: { id, statements: Object.values(typical.statements).flat().length, violations: violations.length },
    checkMs, coldCheckMs, readMs, checkPerRead: checkMs / readMs, editMs, enforceMs, enforceShareOfStoreWrite: enforceMs / editMs,
    httpEdit: { reportMs: reportEditMs, enforceMs: enforceEditMs, enforceCost: enforceEditMs / reportEditMs - 1 },
    report: { wallSeconds: seconds, violations: reported, entities: Number(own?.[2]), seconds: Number(own?.[3]), entitiesPerSecond: Number(own?.[4]) },
  };
  console.log(JSON.stringify(figures, null, 2));
  writeFileSync(join(RESULTS_DIR, `constraints-${items}-${figures.date}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  if (!keep && !flags.value('db')) for (const file of [db, `${db}-wal`, `${db}-shm`]) rmSync(file, { force: true });
}

/** CPU milliseconds per call of `task`, over `n` calls after 20 warm-up calls. */
async function cpuMs(n: number, task: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await task();
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await task();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / n;
}

function withCopy(entity: Entity, property: string, statement: Statement): Entity {
  const copy = { ...statement, id: `${entity.id}$${crypto.randomUUID().toUpperCase()}` };
  return { ...entity, statements: { ...entity.statements, [property]: [...entity.statements[property], copy] } };
}

/**
 * The constraint vocabulary's entities (a constraint property, the type and status items), and constraints on the
 * most used properties of each data type, written as edits. Returns the vocabulary naming them.
 */
async function stateConstraints(store: ReturnType<typeof openSqliteStore>) {
  const put = async (entity: Entity) => {
    const id = await store.allocateId(entity.type);
    const withId = { ...entity, id };
    await store.applyEdit({ entity: withId, previous: null, meta: META, checks: {} });
    return id;
  };
  const blank = (type: 'item' | 'property', dataType?: string): Entity =>
    ({ id: '', type, labels: {}, descriptions: {}, aliases: {}, statements: {}, ...(type === 'item' ? { sitelinks: {} } : { data_type: dataType }) });
  const p = { constraint: await put(blank('property', 'wikibase-item')), format: await put(blank('property', 'string')),
    property: await put(blank('property', 'wikibase-property')), class: await put(blank('property', 'wikibase-item')),
    minimumQuantity: await put(blank('property', 'quantity')), maximumQuantity: await put(blank('property', 'quantity')),
    status: await put(blank('property', 'wikibase-item')) };
  const t: Record<string, string> = {};
  for (const type of ['single-value', 'format', 'distinct-values', 'value-type', 'item-requires-statement', 'range']) t[type] = await put(blank('item'));
  const mandatory = await put(blank('item'));
  const vocab = constraintVocabulary({ properties: p, types: t, items: { mandatory } });
  // The ten lowest-numbered properties of each type are the most used (bench/generate.ts).
  const snak = (property: string, content: unknown) => ({ property: { id: property, 'data-type': null }, value: { type: 'value' as const, content } });
  let n = 0;
  const constraint = (type: string, qualifiers: ReturnType<typeof snak>[]): Statement =>
    ({ id: `P0$00000000-0000-0000-0000-${String(++n).padStart(12, '0')}`, rank: 'normal', ...snak(p.constraint, t[type]), qualifiers, references: [] });
  const byType = new Map<string, string[]>();
  for (let i = 1; i < 400; i++) {
    const read = await store.readEntity(`P${i}`);
    if (read.status === 'found' && read.entity.data_type) byType.set(read.entity.data_type, [...(byType.get(read.entity.data_type) ?? []), read.entity.id]);
  }
  const plan: [string, Statement[]][] = [];
  for (const id of [...(byType.get('external-id') ?? []), ...(byType.get('string') ?? [])].slice(0, 10)) {
    plan.push([id, [constraint('single-value', [snak(p.status, mandatory)]), constraint('format', [snak(p.format, '[^\\s].*')]), constraint('distinct-values', [])]]);
  }
  for (const id of (byType.get('wikibase-item') ?? []).slice(0, 10)) {
    plan.push([id, [constraint('value-type', [snak(p.class, 'Q1')]), constraint('item-requires-statement', [snak(p.property, 'P1')])]]);
  }
  for (const id of (byType.get('quantity') ?? []).slice(0, 5)) {
    plan.push([id, [constraint('range', [snak(p.minimumQuantity, { amount: '-1000000', unit: '1' }), snak(p.maximumQuantity, { amount: '+1000000', unit: '1' })])]]);
  }
  for (const [id, statements] of plan) {
    const read = await store.readEntity(id);
    if (read.status !== 'found') continue;
    const next = { ...read.entity, statements: { ...read.entity.statements, [p.constraint]: statements.map((s) => ({ ...s, id: `${id}$${s.id.slice(3)}` })) } };
    await store.applyEdit({ entity: next, previous: read, meta: META, checks: {} });
  }
  return vocab;
}

await main();
