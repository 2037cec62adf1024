// Special:EntityData (docs/api.md §10.14): an entity in the Wikidata dump format, as MediaWiki serves it at
// `/wiki/Special:EntityData/Q42.json` and `/w/index.php?title=Special:EntityData/Q42.json&revision=N` (the
// URL wikibase-sdk's getEntityRevision builds), or as RDF (`.nt`, `.ttl`) the way Wikibase writes it
// (domain/rdf.ts). Another rendering of the same reads.
import { conceptVocabulary } from '../vocabulary.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Entity } from '../../domain/entity.js';
import { fail } from '../../domain/errors.js';
import { parseEntityId } from '../../domain/kinds.js';
import { toWikidata } from '../../domain/wikidata-export.js';
import type { EntityStore, Head } from '../../store/store.js';
import { revisionTriples, type RdfFlavor } from '../../domain/rdf.js';
import { sendBody } from '../compression.js';
import negotiator from '@fastify/accept-negotiator';
import { jsonBuffer } from '../reply-error.js';
import { chargeRead, type Services } from '../services.js';


export const ENTITY_DATA_PATH = '/wiki/Special:EntityData/:file';
/** An entity's concept URI, as Wikidata's `http://www.wikidata.org/entity/Q42`: a 303 to a document about it. */
export const CONCEPT_PATH = '/entity/:id';

/** What the concept URI answers for each media type a client may ask for (JSON when it asks for none of them). */
const CONCEPT_FORMATS = new negotiator.Negotiator({ supportedValues: ['application/json', 'text/turtle', 'application/n-triples',
  'application/rdf+xml', 'application/ld+json', 'text/html'] });
const CONCEPT_EXTENSIONS: Record<string, string> = { 'application/json': 'json', 'text/turtle': 'ttl', 'application/n-triples': 'nt',
  'application/rdf+xml': 'rdf', 'application/ld+json': 'jsonld' };
export const INDEX_PHP_PATH = '/w/index.php';

const FILE = /^Special:EntityData\/([^/.]+)\.(json|nt|ttl|rdf|jsonld)$/;
/** The page without a format (`Special:EntityData/Q42`): Wikibase answers it by the Accept header. */
const BARE = /^Special:EntityData\/([^/.]+)$/;

/**
 * The RDF formats: N-Triples, and Turtle (written as N-Triples, which is Turtle too), as written; RDF/XML and
 * JSON-LD (expanded, without a context) by Oxigraph's serialisers from the same triples.
 */
const RDF_TYPES: Record<string, string> = { nt: 'application/n-triples; charset=utf-8', ttl: 'text/turtle; charset=utf-8',
  rdf: 'application/rdf+xml; charset=utf-8', jsonld: 'application/ld+json; charset=utf-8' };
const SERIALISED: Record<string, string> = { rdf: 'application/rdf+xml', jsonld: 'application/ld+json' };

/** The triples in a format Oxigraph writes; the module is loaded on first use (it compiles WebAssembly). */
async function serialise(text: string, format: string): Promise<string> {
  const oxigraph = (await import('oxigraph')).default;
  const store = new oxigraph.Store();
  store.load(text, { format: 'application/n-triples', lenient: true });
  return store.dump({ format, from_graph_name: oxigraph.defaultGraph() });
}

/** Wikibase's flavours: `simple` is the entity, its terms, sitelinks and best-rank values; the others all of it. */
function parseFlavor(raw: unknown): RdfFlavor {
  if (raw === undefined || raw === 'dump' || raw === 'long' || raw === 'full') return 'full';
  if (raw === 'simple') return 'truthy';
  return fail('invalid-query-parameter', { parameter: 'flavor' });
}

function parseRevision(raw: unknown): number | null {
  if (raw === undefined) return null;
  if (typeof raw === 'string' && /^[1-9][0-9]{0,15}$/.test(raw)) return Number(raw);
  return fail('invalid-query-parameter', { parameter: 'revision' });
}

/**
 * Where a request for the entity without a format goes, as Wikibase sends it: the document in the format the
 * Accept header prefers (JSON when it names none of them), or, for a browser, the entity's page. `query`: the
 * revision and flavour asked for, kept.
 */
function negotiated(id: string, accept: string | undefined, ui: boolean, query = ''): string {
  const type = (accept ? CONCEPT_FORMATS.negotiate(accept) : null) ?? 'application/json';
  return type === 'text/html' && ui ? `/${id}` : `/wiki/Special:EntityData/${id}.${CONCEPT_EXTENSIONS[type] ?? 'json'}${query}`;
}

/**
 * The parameters of a document's URL that a redirect to it keeps, checked first: a redirect that repeated an
 * unchecked 16 KB revision made a Location header no HTTP client reads.
 */
function kept(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  const revision = parseRevision(query.revision);
  if (revision !== null) params.set('revision', String(revision));
  if (query.flavor !== undefined) {
    parseFlavor(query.flavor);
    params.set('flavor', String(query.flavor));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The entity as `{"entities": {id: …}}` in the dump format, or a redirect to its target's EntityData. */
async function entityData(store: EntityStore, services: Services, req: FastifyRequest, reply: FastifyReply, title: string) {
  const query = req.query as Record<string, unknown>;
  const bare = BARE.exec(title);
  const bareId = bare && parseEntityId(bare[1]);
  if (bareId) {
    return reply.code(303).header('vary', 'Accept')
      .header('location', services.config.publicUrl + negotiated(bareId.id, req.headers.accept, services.config.ui, kept(query))).send();
  }
  const file = FILE.exec(title);
  const { id, kind } = parseEntityId(file?.[1] ?? '') ?? fail('rest-no-match', undefined, { path: `/wiki/${title}` });
  const format = file![2];
  const revision = parseRevision(query.revision);
  const flavor = format === 'json' ? null : parseFlavor(query.flavor);
  const redirect = (target: string) =>
    reply.code(303).header('location', `${services.config.publicUrl}/wiki/Special:EntityData/${target}.${format}`).send();
  const type = flavor === null ? 'application/json' : RDF_TYPES[format];
  if (revision !== null) {
    const content = await store.readRevision(id, revision)
      ?? fail('revision-not-found', undefined, { id: String(revision), entity: id });
    if (content.kind === 'redirect') return redirect(content.target);
    return sendBody(reply, await render(content, id, format, flavor, services), type);
  }
  // The latest revision: its head is read, and its document rendered once per revision, as GET's JSON is.
  const read = await store.readDocument(id);
  if (read.status === 'redirect') return redirect(read.target);
  if (read.status === 'missing') return fail(kind.codes.notFound, undefined, { id });
  const key = `${id}.${format}.${flavor ?? ''}`;
  const cached = services.entityDataDocuments.get(key, read.head.revision);
  if (cached) return sendBody(reply, cached, type);
  const bytes = await render({ entity: JSON.parse(read.json()) as Entity, head: read.head }, id, format, flavor, services);
  return sendBody(reply, services.entityDataDocuments.put(key, read.head.revision, bytes, bytes.length), type);
}

/** The document of one revision: the dump form as JSON, or its RDF in the format and flavour asked for. */
async function render(found: { entity: Entity; head: Head }, id: string, format: string, flavor: RdfFlavor | null, services: Services): Promise<Buffer> {
  if (flavor === null) return jsonBuffer({ entities: { [id]: toWikidata(found.entity, { id: found.head.revision, modified: found.head.modified }) } });
  const triples = revisionTriples(found.entity, found.head, { flavor, sites: services.sites, vocabulary: conceptVocabulary(services.config) });
  const text = `${triples.join('\n')}\n`;
  return Buffer.from(format in SERIALISED ? await serialise(text, SERIALISED[format]) : text);
}

export function registerEntityData(app: FastifyInstance, store: EntityStore, services: Services): void {
  app.get(ENTITY_DATA_PATH, async (req, reply) => {
    await chargeRead(services.guard, req);
    const { file } = req.params as { file: string };
    return entityData(store, services, req, reply, `Special:EntityData/${file}`);
  });
  app.get(INDEX_PHP_PATH, async (req, reply) => {
    await chargeRead(services.guard, req);
    const query = req.query as Record<string, unknown>;
    if (typeof query.title !== 'string') return fail('invalid-query-parameter', { parameter: 'title' });
    return entityData(store, services, req, reply, query.title);
  });
  app.get(CONCEPT_PATH, async (req, reply) => {
    const { id: raw } = req.params as { id: string };
    const { id } = parseEntityId(raw) ?? fail('rest-no-match', undefined, { path: `/entity/${raw}` });
    // A browser goes to the entity's page (the web interface), as Wikidata sends it to the wiki page.
    return reply.code(303).header('vary', 'Accept').header('location', services.config.publicUrl + negotiated(id, req.headers.accept, services.config.ui)).send();
  });
}
