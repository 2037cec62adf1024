// The server's side of the SPARQL engine's threads (engine-protocol.ts): the RDF writer and the engine, joined by
// a channel of their own; requests with replies matched by id, and the one way to stop a query that runs too
// long. WebAssembly cannot be interrupted, so a query past its timeout ends the threads: they are started again
// and the mirror reloads the engine (mirror.ts), while the rest of the server answers as before.
import { EventEmitter } from 'node:events';
import { MessageChannel, type Worker } from 'node:worker_threads';
import { startThread } from '../threads.js';
import type { EngineReply, EngineRequest, EngineSetup, MirrorEntity, WriterRequest } from './engine-protocol.js';

/** Distributes Omit over a union, so each request keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Done = Extract<EngineReply, { ok: true }>;

interface Pending {
  resolve: (reply: Done) => void;
  reject: (e: Error) => void;
  /** A query's: told when the engine starts running it. */
  started?: () => void;
  /** Whether it is a query (its failure is the query's, not the data's). */
  query: boolean;
}

/** Failures of the engine's threads within CRASH_WINDOW_MS after which it is not started again. */
const CRASH_LIMIT = 3;
const CRASH_WINDOW_MS = 10 * 60_000;

export class QueryTimeout extends Error {}
/** The engine's thread ended (a timeout, a crash, the server stopping) before this request was answered; the message says why. */
export class EngineRestarted extends Error {}
/** The engine refused the request: a query it cannot run, a file it cannot read. */
export class EngineError extends Error {}
/** The engine trapped while running this query (out of memory, or a fault); it is restarting. */
export class QueryTrapped extends Error {}

/**
 * Characters of triples the RDF writer holds, for an engine allowed `memoryLimit` bytes: a sixteenth of it (192 M
 * characters at the default 3 GB), and never fewer than 96 M. An entity the writer does not hold is rendered and
 * written whole at its next edit (about 2 ms of the writer's and the engine's CPU for a Wikidata-sized item, against
 * some 0.1 ms for a patch): at 96 M the writer held some 1,900 of the 2,000-item bench store's items, and the
 * whole renderings of the rest were most of the writer's CPU under random edits (ADR 0016, "Holding what the
 * engine may hold"). Holding every triple would cost some 30% of the engine's own memory more.
 */
export function writerChars(memoryLimit: number): number {
  return Math.max(LEAST_WRITER_CHARS, Math.floor(memoryLimit / 16));
}

/** The writer's budget when its owner gives none (a small allowance's): some 2,000 Wikidata-sized items. */
const LEAST_WRITER_CHARS = 96 * 2 ** 20;

export class SparqlEngine extends EventEmitter {
  private worker: Worker;
  private writer: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  /** Queries sent and not yet answered. */
  private queries = 0;
  /** When the threads failed lately (crashed). */
  private crashes: number[] = [];

  /** `writerChars`: characters of triples the RDF writer holds to patch entities (writerChars; tests make it small). */
  constructor(private readonly setup: EngineSetup, private readonly options: { writerChars?: number } = {}) {
    super();
    [this.worker, this.writer] = this.spawn();
  }

  /** Writes entities, through the RDF writer's thread (the engine's thread answers). */
  put(entities: MirrorEntity[], fresh: boolean): Promise<Done> {
    return this.send(this.writer, (id) => ({ id, entities, fresh }) satisfies WriterRequest).catch((e: unknown) => {
      // The writer may have moved on from what the engine holds: its next write of each entity is whole.
      this.resetWriter();
      throw e;
    });
  }

  save(path: string, header: string): Promise<Done> {
    return this.request({ op: 'save', path, header });
  }

  restore(path: string): Promise<Done> {
    this.resetWriter();
    return this.request({ op: 'restore', path });
  }

  count(): Promise<Done> {
    return this.request({ op: 'count' });
  }

  clear(): Promise<Done> {
    this.resetWriter();
    return this.request({ op: 'clear' });
  }

  /** The writer forgets what it wrote (rdf-worker.ts): the engine's content is about to be something else. */
  private resetWriter(): void {
    if (!this.closed) this.writer.postMessage({ reset: true } satisfies WriterRequest);
  }

  /** Runs a query, serialised in `format`; past `timeoutMs` of running (not of waiting its turn), the engine restarts. */
  async query(query: string, format: string, timeoutMs: number): Promise<string | boolean> {
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const started = () => {
      timer = setTimeout(() => { timedOut = true; this.restart('another query ran over its time limit'); }, timeoutMs);
    };
    this.queries++;
    try {
      return (await this.request({ op: 'query', query, format }, { started, query: true })).result!;
    } catch (e) {
      if (timedOut) throw new QueryTimeout(`the query ran longer than ${timeoutMs / 1000} s`);
      throw e;
    } finally {
      clearTimeout(timer);
      this.queries--;
    }
  }

  /** Queries sent and not yet answered: the one running and those waiting their turn (the mirror's writes not). */
  get queued(): number {
    return this.queries;
  }

  /** Whether the engine's threads are stopped (close), or stopping. */
  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new EngineRestarted('the server is stopping'));
    await Promise.all([this.worker.terminate(), this.writer.terminate()]);
  }

  private request(message: WithoutId<EngineRequest>, about?: Omit<Pending, 'resolve' | 'reject'>): Promise<Done> {
    return this.send(this.worker, (id) => ({ ...message, id }) as EngineRequest, about);
  }

  /**
   * Posts a message with a new id to one of the threads; the engine's thread answers it. `about`: whether it is
   * a query, and what to tell when the engine starts running it.
   */
  private send(thread: Worker, message: (id: number) => EngineRequest | WriterRequest,
    about: Omit<Pending, 'resolve' | 'reject'> = { query: false }): Promise<Done> {
    if (this.closed) return Promise.reject(new EngineRestarted('the SPARQL engine is stopped'));
    const id = this.nextId++;
    return new Promise<Done>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...about });
      thread.postMessage(message(id));
    });
  }

  /**
   * A thread that failed (out of memory, a fault in the engine): restarted like a timeout, unless it has failed
   * CRASH_LIMIT times within CRASH_WINDOW_MS, when it would only fail again on the same data: then `failed`.
   */
  private crashed(error: Error | null): void {
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (this.crashes.length < CRASH_LIMIT) return this.restart('its thread failed');
    this.closed = true;
    this.endThreads();
    this.failAll(new EngineRestarted('the engine failed'));
    this.emit('failed', error ?? new Error('its thread exited'));
  }

  /**
   * Ends both threads and starts empty ones; `restarted` tells the mirror to fill the engine again. `why`: what
   * the requests it cuts short are told.
   */
  private restart(why: string): void {
    this.endThreads();
    this.failAll(new EngineRestarted(`the engine restarted while the query waited (${why})`));
    if (this.closed) return;
    [this.worker, this.writer] = this.spawn();
    this.emit('restarted');
  }

  /** Ends both threads, no longer listening to them (their exit is not a crash). */
  private endThreads(): void {
    for (const thread of [this.worker, this.writer]) {
      thread.removeAllListeners();
      void thread.terminate();
    }
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  private spawn(): [Worker, Worker] {
    const channel = new MessageChannel();
    const engine = startThread(import.meta.url, 'engine-worker', { workerData: { setup: this.setup, writer: channel.port1 }, transferList: [channel.port1] });
    const writer = startThread(import.meta.url, 'rdf-worker', { workerData: { setup: this.setup, engine: channel.port2, heldChars: this.options.writerChars ?? LEAST_WRITER_CHARS },
      transferList: [channel.port2] });
    const answer = (reply: EngineReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      if ('started' in reply) return waiter.started?.();
      this.pending.delete(reply.id);
      if (reply.ok) return waiter.resolve(reply);
      if (!reply.trapped) return waiter.reject(new EngineError(reply.error));
      // New threads, and the mirror fills the engine again. A query that trapped it is the query's doing, as a
      // timeout is; a write that did would do it again on the same data, so it counts towards CRASH_LIMIT.
      waiter.reject(waiter.query ? new QueryTrapped(reply.error) : new EngineError(reply.error));
      if (waiter.query) this.restart('another query ran out of the engine\'s memory');
      else this.crashed(new Error(`the engine failed writing: ${reply.error}`));
    };
    for (const worker of [engine, writer]) {
      worker.on('message', answer);
      // Out of memory, or a fault in the engine: what was asked fails, and new threads start.
      worker.on('error', (error) => this.crashed(error));
      worker.on('exit', () => { if (!this.closed) this.crashed(null); });
    }
    return [engine, writer];
  }
}
