// Special:EntityData (docs/api.md §10.14): an entity in the Wikidata dump format, as MediaWiki serves it at
// `/wiki/Special:EntityData/Q42.json` and `/w/index.php?title=Special:EntityData/Q42.json&revision=N` (the
// URL wikibase-sdk's getEntityRevision builds). Another rendering of the same reads; JSON only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../domain/errors.js';
import { parseEntityId } from '../domain/kinds.js';
import { toWikidata } from '../domain/wikidata-export.js';
import type { Store } from '../store/store.js';
import { jsonBuffer } from './reply-error.js';
import type { Services } from './services.js';

export const ENTITY_DATA_PATH = '/wiki/Special:EntityData/:file';
export const INDEX_PHP_PATH = '/w/index.php';

const FILE = /^Special:EntityData\/([^/]+)\.json$/;

function parseRevision(raw: unknown): number | null {
  if (raw === undefined) return null;
  if (typeof raw === 'string' && /^[1-9][0-9]{0,15}$/.test(raw)) return Number(raw);
  return fail('invalid-query-parameter', { parameter: 'revision' });
}

async function entityData(store: Store, services: Services, reply: FastifyReply, title: string, rawRevision: unknown) {
  const m = FILE.exec(title);
  const parsed = m ? parseEntityId(m[1]) : null;
  if (!parsed) fail('rest-no-match', undefined, { path: `/wiki/${title}` });
  const { id, kind } = parsed!;
  const revision = parseRevision(rawRevision);
  let body: unknown;
  if (revision !== null) {
    const content = await store.readRevision(id, revision);
    if (!content) fail('revision-not-found', undefined, { id: String(revision), entity: id });
    if (content!.kind === 'redirect') return reply.code(303).header('location', `${services.config.publicUrl}/wiki/Special:EntityData/${content!.target}.json`).send();
    const { entity, head } = content as Extract<typeof content, { kind: 'entity' }>;
    body = { entities: { [id]: toWikidata(entity, { id: head.revision, modified: head.modified }) } };
  } else {
    const read = await store.readEntity(id);
    if (read.status === 'redirect') return reply.code(303).header('location', `${services.config.publicUrl}/wiki/Special:EntityData/${read.target}.json`).send();
    if (read.status === 'missing') fail(kind.codes.notFound, undefined, { id });
    if (read.status !== 'found') return reply;
    body = { entities: { [id]: toWikidata(read.entity, { id: read.head.revision, modified: read.head.modified }) } };
  }
  return reply.type('application/json').send(jsonBuffer(body as Record<string, unknown>));
}

export function registerEntityData(app: FastifyInstance, store: Store, services: Services): string[] {
  const read = async (req: FastifyRequest) => {
    await services.guard.read({ identity: await services.guard.identify(req.headers.authorization), address: req.ip });
  };
  app.get(ENTITY_DATA_PATH, async (req, reply) => {
    await read(req);
    const { file } = req.params as { file: string };
    return entityData(store, services, reply, `Special:EntityData/${file}`, (req.query as Record<string, unknown>).revision);
  });
  app.get(INDEX_PHP_PATH, async (req, reply) => {
    await read(req);
    const { title, revision } = req.query as Record<string, unknown>;
    if (typeof title !== 'string') fail('invalid-query-parameter', { parameter: 'title' });
    return entityData(store, services, reply, title as string, revision);
  });
  return [ENTITY_DATA_PATH, INDEX_PHP_PATH];
}
