// GET /v1/changes/stream (docs/api.md §10.10): the change feed as Server-Sent Events (@fastify/sse negotiates
// the stream, sends its headers and the heartbeat comments, and tracks the connection). Followers are grouped
// by position: one store read per tick serves every follower at the same cursor, and the events of that read
// are framed once and written to each follower's socket in one write. (Sending each change through the
// plugin, once per follower, cost 3.6 ms of server CPU per edit with 200 followers against 0.9 ms without.)
// Each follower is paced by its own connection: a write holds at most ENTIA_STREAM_BUFFER bytes of events (one
// event at least: an rdf_change import of a large item is megabytes), and the next comes once the connection
// has taken it. A follower that takes nothing for STALL_MS is disconnected rather than waited for without end;
// it resumes with Last-Event-ID.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { fastifySSE } from '@fastify/sse';
import { fail } from '../../domain/errors.js';
import { InvalidCursor, type Change, type ChangeFeed, type CommitWatch } from '../../store/store.js';
import { changeFormat, renderChange } from '../change-json.js';
import { rdfChangeSize, type RdfChangeEvent } from '../../sparql/rdf-change.js';

/**
 * How often followers' positions are read from the store when nothing is heard: this process's own commits
 * wake the hub sooner (CommitWatch); other processes' are found at the next tick.
 */
const TICK_MS = 200;
/**
 * How long after a commit of this process the hub reads: the commits of that while share one read and one
 * write to each follower (a read per commit cost a JSON follower 26% of an edit's CPU, measured with
 * bench/rdf-change-cpu.mjs), and an rdf_change follower stays within the revisions the store still holds parsed.
 */
const WAKE_MS = 10;
/** Changes read per position and tick; a follower further behind catches up over several ticks. */
const PAGE = 500;
/**
 * rdf_change events are rendered in chunks of this many, until a tick has spent RDF_TICK_MS: an event costs
 * little when its entity's last revision was rendered (the follower is in step), and a whole rendering of a
 * large item when not, so a follower far behind catches up without holding the event loop for long.
 */
const RDF_CHUNK = 50;
const RDF_TICK_MS = 50;
/** How long a follower may leave a write untaken before it is disconnected. */
const STALL_MS = 10_000;

interface Follower {
  cursor: string;
  /** `change` events (the feed's JSON), or `rdf_change` events (format=rdf). */
  format: 'json' | 'rdf';
  reply: FastifyReply;
  /** Since when its connection has held a write it has not taken whole (null: it has taken everything). */
  waiting: number | null;
}

type RenderedChange = Change & { event: RdfChangeEvent };

/** Renders changes as rdf_change events (http/rdf-changes.ts), up to about `maxBytes` of RDF (one at least). */
export type RdfRenderer = (changes: readonly Change[], maxBytes: number) => Promise<RdfChangeEvent[]>;

class ChangeHub {
  private readonly followers = new Set<Follower>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  /** A commit was heard, or a page came back full, while a tick ran: tick again once it ends. */
  private again = false;
  private woken = false;
  private stopWatching: (() => void) | null = null;

  /** `maxWrite`: bytes of events written to a follower at a time (one event at least). */
  constructor(private readonly store: ChangeFeed & CommitWatch, private readonly maxWrite: number,
    private readonly counted: (followers: number) => void, private readonly rdf: RdfRenderer) {}

  add(follower: Follower): void {
    this.followers.add(follower);
    this.counted(this.followers.size);
    this.timer ??= setInterval(() => void this.tick(), TICK_MS);
    this.stopWatching ??= this.store.watchCommits(() => this.wake());
  }

  /** A commit of this process: one tick within WAKE_MS, however many commits come in between. */
  private wake(): void {
    if (this.woken) return;
    this.woken = true;
    setTimeout(() => {
      this.woken = false;
      void this.tick();
    }, WAKE_MS);
  }

  remove(follower: Follower): void {
    this.followers.delete(follower);
    this.counted(this.followers.size);
    if (this.followers.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.stopWatching?.();
      this.stopWatching = null;
    }
  }

  close(): void {
    for (const f of this.followers) f.reply.raw.destroy();
    this.followers.clear();
    this.counted(0);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopWatching?.();
    this.stopWatching = null;
  }

  /** One read per distinct position; each follower gets what lies after its own cursor. */
  private async tick(): Promise<void> {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.again = false;
    try {
      for (const group of this.readyByPosition()) {
        const { cursor, format } = group[0];
        const read = await this.store.changes({ since: cursor === '0' ? null : cursor, limit: PAGE });
        const changes = format === 'rdf' ? await this.renderedPrefix(read) : read;
        const frames = this.framed(changes, format);
        if (frames.length === 0) continue;
        // Behind by more than this tick took: the next one at once, not at the next interval.
        if (frames.length < read.length || read.length === PAGE) this.again = true;
        const next = changes[frames.length - 1].cursor;
        const text = frames.join('');
        for (const f of group) this.deliver(f, text, next);
      }
    } catch {
      // The store is briefly unreachable: the next tick tries again from the same positions.
    } finally {
      this.busy = false;
      if (this.again) this.wake();
    }
  }

  /**
   * The followers to write to, grouped by position: those whose connection has taken every write. One that has
   * left a write untaken for STALL_MS is disconnected.
   */
  private readyByPosition(): Follower[][] {
    const byPosition = new Map<string, Follower[]>();
    const now = Date.now();
    for (const f of this.followers) {
      if (f.waiting !== null) {
        if (now - f.waiting > STALL_MS) this.drop(f);
        continue;
      }
      const key = `${f.format} ${f.cursor}`;
      const group = byPosition.get(key);
      if (group) group.push(f);
      else byPosition.set(key, [f]);
    }
    return [...byPosition.values()];
  }

  /** The first changes' SSE frames, up to maxWrite characters (one frame at least). */
  private framed(changes: readonly Change[], format: Follower['format']): string[] {
    const frames: string[] = [];
    let size = 0;
    for (const c of changes) {
      if (size >= this.maxWrite) break;
      const frame = format === 'rdf' ? sseFrame(c.cursor, 'rdf_change', (c as RenderedChange).event) : sseFrame(c.cursor, 'change', renderChange(c));
      frames.push(frame);
      size += frame.length;
    }
    return frames;
  }

  /**
   * The first changes of a page with their rdf_change events: as many as RDF_TICK_MS allows (one chunk at
   * least), and about as many as one write holds (rendering more would be thrown away).
   */
  private async renderedPrefix(changes: readonly Change[]): Promise<RenderedChange[]> {
    const rendered: RenderedChange[] = [];
    const started = performance.now();
    let size = 0;
    for (let i = 0; i < changes.length && size < this.maxWrite && (i === 0 || performance.now() - started < RDF_TICK_MS);) {
      const chunk = changes.slice(i, i + RDF_CHUNK);
      const events = await this.rdf(chunk, this.maxWrite - size);
      events.forEach((event, k) => {
        rendered.push({ event, ...chunk[k] }); // the new member first (ADR 0021)
        size += rdfChangeSize(event);
      });
      i += events.length;
    }
    return rendered;
  }

  private deliver(f: Follower, frames: string, next: string): void {
    if (!f.reply.sse.isConnected) return this.remove(f);
    f.cursor = next;
    if (f.reply.raw.write(frames)) return;
    // The connection has not taken it all yet: nothing more until it has.
    f.waiting = Date.now();
    f.reply.raw.once('drain', () => {
      f.waiting = null;
      this.wake();
    });
  }

  /**
   * Disconnects a follower that takes nothing. Reset, not closed: a close waits behind the bytes the follower
   * never reads, and neither side would learn of it.
   */
  private drop(f: Follower): void {
    this.remove(f);
    const socket = f.reply.raw.socket;
    if (socket) socket.resetAndDestroy();
    else f.reply.raw.destroy();
  }
}

/**
 * One change as an SSE event (`id`, `event`, one `data` line: JSON.stringify writes no line breaks), framed
 * once for every follower that receives it.
 */
function sseFrame(cursor: string, event: string, data: unknown): string {
  return `id: ${cursor}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const CHANGE_STREAM_PATH = '/v1/changes/stream';

/** Registers the route after the SSE plugin (both are queued, so the route sees the plugin's hooks). */
/** `counted`: told the number of followers each time it changes (GET /metrics). */
export function registerChangeStream(app: FastifyInstance, store: ChangeFeed & CommitWatch, maxWrite: number, counted: (followers: number) => void,
  rdf: RdfRenderer): void {
  app.register(fastifySSE, { heartbeatInterval: 15_000 });
  app.register(async (scope) => routes(scope, store, maxWrite, counted, rdf));
}

async function routes(app: FastifyInstance, store: ChangeFeed & CommitWatch, maxWrite: number, counted: (followers: number) => void,
  rdf: RdfRenderer): Promise<void> {
  const hub = new ChangeHub(store, maxWrite, counted, rdf);
  // Before the server closes, not after: closing waits for every open connection to end, and a follower's
  // never does by itself (an `onClose` hook here left SIGTERM waiting forever once a change had been sent).
  app.addHook('preClose', async () => hub.close());
  app.get(CHANGE_STREAM_PATH, { sse: 'only' }, async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const format = changeFormat(query.format);
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
    // A first heartbeat at once: a proxy or client sees bytes before any change, not only after the interval.
    reply.raw.write(': heartbeat\n\n');
    const follower: Follower = { cursor, format, reply, waiting: null };
    hub.add(follower);
    reply.sse.onClose(() => hub.remove(follower));
  });
}
