// Special:EntityData (docs/api.md §10.14): an entity in the Wikidata dump format, as MediaWiki serves it at
// `/wiki/Special:EntityData/Q42.json` and `/w/index.php?title=Special:EntityData/Q42.json&revision=N` (the
// URL wikibase-sdk's getEntityRevision builds). Another rendering of the same reads; JSON only.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Entity } from '../domain/entity.js';
import { fail } from '../domain/errors.js';
import { parseEntityId } from '../domain/kinds.js';
import { toWikidata } from '../domain/wikidata-export.js';
import type { Head, Store, EntityStore } from '../store/store.js';
import { jsonBuffer } from './reply-error.js';
import { chargeRead, type Services } from './services.js';

export const ENTITY_DATA_PATH = '/wiki/Special:EntityData/:file';
export const INDEX_PHP_PATH = '/w/index.php';

const FILE = /^Special:EntityData\/([^/]+)\.json$/;

function parseRevision(raw: unknown): number | null {
  if (raw === undefined) return null;
  if (typeof raw === 'string' && /^[1-9][0-9]{0,15}$/.test(raw)) return Number(raw);
  return fail('invalid-query-parameter', { parameter: 'revision' });
}

/** The entity as `{"entities": {id: …}}` in the dump format, or a redirect to its target's EntityData. */
async function entityData(store: EntityStore, services: Services, reply: FastifyReply, title: string, rawRevision: unknown) {
  const { id, kind } = parseEntityId(FILE.exec(title)?.[1] ?? '') ?? fail('rest-no-match', undefined, { path: `/wiki/${title}` });
  const revision = parseRevision(rawRevision);
  const redirect = (target: string) =>
    reply.code(303).header('location', `${services.config.publicUrl}/wiki/Special:EntityData/${target}.json`).send();
  let found: { entity: Entity; head: Head };
  if (revision !== null) {
    const content = await store.readRevision(id, revision)
      ?? fail('revision-not-found', undefined, { id: String(revision), entity: id });
    if (content.kind === 'redirect') return redirect(content.target);
    found = content;
  } else {
    const read = await store.readEntity(id);
    if (read.status === 'redirect') return redirect(read.target);
    if (read.status === 'missing') return fail(kind.codes.notFound, undefined, { id });
    found = read;
  }
  const body = { entities: { [id]: toWikidata(found.entity, { id: found.head.revision, modified: found.head.modified }) } };
  return reply.type('application/json').send(jsonBuffer(body));
}

export function registerEntityData(app: FastifyInstance, store: Store, services: Services): string[] {
  app.get(ENTITY_DATA_PATH, async (req, reply) => {
    await chargeRead(services.guard, req);
    const { file } = req.params as { file: string };
    return entityData(store, services, reply, `Special:EntityData/${file}`, (req.query as Record<string, unknown>).revision);
  });
  app.get(INDEX_PHP_PATH, async (req, reply) => {
    await chargeRead(services.guard, req);
    const { title, revision } = req.query as Record<string, unknown>;
    if (typeof title !== 'string') return fail('invalid-query-parameter', { parameter: 'title' });
    return entityData(store, services, reply, title, revision);
  });
  return [ENTITY_DATA_PATH, INDEX_PHP_PATH];
}
