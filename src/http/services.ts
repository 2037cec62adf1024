// What handlers need besides the store, built once at start-up from the Config.
import { rdfChangeRenderer, type RdfChangeRenderer } from './rdf-changes.js';
import type { Config } from '../config.js';
import { buildSiteTable, type BadgePolicy, type SiteTable } from '../domain/sites.js';
import { RevisionCache } from '../store/revision-cache.js';
import type { Account } from '../store/store.js';
import { Metrics } from './metrics.js';
import { EditQueue } from './write/turns.js';
import { constraintCaches, type ConstraintCaches } from './constraints.js';

/** Who sent a request: nobody in particular, an account, or someone holding a token we do not know. */
export type Identity =
  | { kind: 'anonymous' }
  | { kind: 'invalid-token' }
  | { kind: 'user'; account: Account };

/** Who a request comes from, as permissions and the rate limits see it (a Ctx is one). */
export interface Client {
  identity: Identity;
  address: string;
}

/** Authentication, permission and rate-limit hooks (spec §5, §8; guard.ts). The default lets everything through. */
export interface EditGuard {
  /** Resolves the request's Authorization header, once per request before its handler. Never throws for a bad token. */
  identify(authorization: string | string[] | undefined): Promise<Identity>;
  /** docs/api.md §7.7 step 7: may this client edit this entity (null id: create one)? Throws permission-denied. */
  authorize(client: Client, entityId: string | null): Promise<void>;
  /** Step 9: counts the edit against the client's budget; throws request-limit-reached. */
  consume(client: Client, creation: boolean): Promise<void>;
  /** Counts a read against the client's read budget (off by default); throws request-limit-reached. */
  read(client: Client): Promise<void>;
  /**
   * Counts a login attempt of the Action API from `address` (LOGIN_ATTEMPTS per address, whatever the account);
   * throws request-limit-reached past it, before the password is looked at.
   */
  loginAttempt(address: string): Promise<void>;
}

/** Action API logins one address may attempt per window: a bot logs in once and keeps its session. */
export const LOGIN_ATTEMPTS = { count: 10, windowSeconds: 300 };

/**
 * Spends a read of the request's client, for the reads served beside the route table (reconciliation,
 * Special:EntityData, the Action API), which have no Ctx of their own.
 */
export async function chargeRead(guard: EditGuard, req: { headers: { authorization?: string }; ip: string }): Promise<void> {
  await guard.read({ identity: await guard.identify(req.headers.authorization), address: req.ip });
}

export const OPEN_GUARD: EditGuard = {
  async identify() {
    return { kind: 'anonymous' };
  },
  async authorize() {},
  async consume() {},
  async read() {},
  async loginAttempt() {},
};

export interface Services {
  config: Config;
  sites: SiteTable;
  badges: BadgePolicy;
  tags: ReadonlySet<string>;
  guard: EditGuard;
  /** GET responses of whole entities, as bytes, by (id, revision). */
  documents: RevisionCache<Buffer>;
  /** Special:EntityData documents of latest revisions, as bytes, by (id.format.flavour, revision). */
  entityDataDocuments: RevisionCache<Buffer>;
  /** Counters and histograms served at /metrics. */
  metrics: Metrics;
  /** The change feed's `format=rdf` events, with the triples of recent revisions kept. */
  rdfChanges: RdfChangeRenderer;
  /** This process's edits of one entity, taking turns (write/turns.ts), whichever API they came through. */
  edits: EditQueue;
  /** Properties' constraints and entities' links, by revision, for every constraint check (constraints.ts). */
  constraintCaches: ConstraintCaches;
}

/**
 * Rendered documents kept, in bytes. Bytes are the cheapest form to keep (a parsed document takes about six
 * times its JSON length of heap): 8 MB holds some 800 typical items, the hot set of most workloads.
 */
const DOCUMENT_CACHE_BYTES = 8 * 2 ** 20;
/** Special:EntityData's rendered documents (RDF is some three times an entity's JSON): linked-data tools' hot set. */
const ENTITY_DATA_CACHE_BYTES = 8 * 2 ** 20;

export function buildServices(config: Config, sitesOverride?: unknown, guard: EditGuard = OPEN_GUARD): Services {
  const sites = buildSiteTable(sitesOverride);
  return {
    config,
    sites,
    badges: { allowedBadges: new Set(config.allowedBadges) },
    tags: new Set(config.allowedTags),
    guard,
    documents: new RevisionCache<Buffer>(DOCUMENT_CACHE_BYTES),
    entityDataDocuments: new RevisionCache<Buffer>(ENTITY_DATA_CACHE_BYTES),
    metrics: new Metrics(),
    rdfChanges: rdfChangeRenderer({ config, sites }),
    edits: new EditQueue(),
    constraintCaches: constraintCaches(),
  };
}
