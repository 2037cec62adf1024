// GET /v1/changes/stream (docs/api.md §10.10): the change feed as Server-Sent Events (@fastify/sse does the
// framing and the heartbeat comments). Followers are grouped by position: one store read per tick serves
// every follower at the same cursor, so a few hundred followers cost about as much as one. A follower whose
// socket does not drain is disconnected rather than buffered without bound; it resumes with Last-Event-ID.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { fastifySSE } from '@fastify/sse';
import { fail } from '../domain/errors.js';
import { InvalidCursor, type Change, type Store } from '../store/store.js';
import { renderChange } from './handlers/changes.js';

/** How often followers' positions are read from the store. */
const TICK_MS = 200;
/** Changes read per position and tick; a follower further behind catches up over several ticks. */
const PAGE = 500;
/** Bytes waiting in a follower's socket beyond which it is dropped as too slow. */
const MAX_BUFFERED = 1 << 20;

interface Follower {
  cursor: string;
  reply: FastifyReply;
}

class ChangeHub {
  private readonly followers = new Set<Follower>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;

  constructor(private readonly store: Store) {}

  add(follower: Follower): void {
    this.followers.add(follower);
    this.timer ??= setInterval(() => void this.tick(), TICK_MS);
  }

  remove(follower: Follower): void {
    this.followers.delete(follower);
    if (this.followers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  close(): void {
    for (const f of this.followers) f.reply.raw.destroy();
    this.followers.clear();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One read per distinct position; each follower gets what lies after its own cursor. */
  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const byCursor = new Map<string, Follower[]>();
      for (const f of this.followers) byCursor.set(f.cursor, [...(byCursor.get(f.cursor) ?? []), f]);
      for (const [cursor, group] of byCursor) {
        const changes = await this.store.changes({ since: cursor === '0' ? null : cursor, limit: PAGE });
        if (changes.length === 0) continue;
        for (const f of group) this.deliver(f, changes);
      }
    } catch {
      // The store is briefly unreachable: the next tick tries again from the same positions.
    } finally {
      this.busy = false;
    }
  }

  private deliver(f: Follower, changes: Change[]): void {
    if (!f.reply.sse.isConnected) return this.remove(f);
    if (f.reply.raw.writableLength > MAX_BUFFERED) {
      this.remove(f);
      f.reply.raw.destroy();
      return;
    }
    f.cursor = changes[changes.length - 1].cursor;
    for (const c of changes) void f.reply.sse.send({ id: c.cursor, event: 'change', data: renderChange(c) }).catch(() => {});
  }
}

export const CHANGE_STREAM_PATH = '/v1/changes/stream';

/** Registers the route after the SSE plugin (both are queued, so the route sees the plugin's hooks). */
export function registerChangeStream(app: FastifyInstance, store: Store): void {
  app.register(fastifySSE, { heartbeatInterval: 15_000 });
  app.register(async (scope) => routes(scope, store));
}

async function routes(app: FastifyInstance, store: Store): Promise<void> {
  const hub = new ChangeHub(store);
  app.addHook('onClose', async () => hub.close());
  app.get(CHANGE_STREAM_PATH, { sse: 'only' }, async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const since = typeof query.since === 'string' ? query.since : reply.sse.lastEventId;
    let cursor: string;
    try {
      // Without a position: what commits from now on. With one: checked by a first read.
      cursor = since ?? await store.changesHead();
      if (since !== null && since !== undefined && since !== '0') await store.changes({ since, limit: 1 });
    } catch (e) {
      if (e instanceof InvalidCursor) fail('invalid-query-parameter', { parameter: 'since' });
      throw e;
    }
    reply.sse.keepAlive();
    reply.sse.sendHeaders(); // the stream is open now, before the first change (headers are otherwise written with it)
    const follower: Follower = { cursor, reply };
    hub.add(follower);
    reply.sse.onClose(() => hub.remove(follower));
  });
}
