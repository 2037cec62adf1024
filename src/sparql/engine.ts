// The server's side of the SPARQL engine's thread (engine-worker.ts): requests with replies matched by id, and
// the one way to stop a query that runs too long. WebAssembly cannot be interrupted, so a query past its
// timeout ends its thread: the engine is started again and the mirror reloads it (mirror.ts), while the rest
// of the server answers as before.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { EngineReply, EngineRequest, MirrorEntity } from './engine-protocol.js';
import type { EngineWorkerData } from './engine-worker.js';

/** Distributes Omit over a union, so each request keeps its own fields. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Done = Extract<EngineReply, { ok: true }>;

interface Pending {
  resolve: (reply: Done) => void;
  reject: (e: Error) => void;
  started?: () => void;
}

export class QueryTimeout extends Error {}
/** The engine's thread ended (a timeout, or a crash) before this request was answered. */
export class EngineRestarted extends Error {}
/** The engine refused the request: a query it cannot run, a file it cannot read. */
export class EngineError extends Error {}

export class SparqlEngine extends EventEmitter {
  private worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(private readonly data: EngineWorkerData) {
    super();
    this.worker = this.spawn();
  }

  put(entities: MirrorEntity[], fresh: boolean): Promise<Done> {
    return this.request({ op: 'put', entities, fresh });
  }

  save(path: string, header: string): Promise<Done> {
    return this.request({ op: 'save', path, header });
  }

  restore(path: string): Promise<Done> {
    return this.request({ op: 'restore', path });
  }

  clear(): Promise<Done> {
    return this.request({ op: 'clear' });
  }

  /** Runs a query, serialised in `format`; past `timeoutMs` of running (not of waiting its turn), the engine restarts. */
  async query(query: string, format: string, timeoutMs: number): Promise<string | boolean> {
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const started = () => {
      timer = setTimeout(() => { timedOut = true; this.restart(); }, timeoutMs);
    };
    try {
      return (await this.request({ op: 'query', query, format }, started)).result!;
    } catch (e) {
      if (timedOut) throw new QueryTimeout(`the query ran longer than ${timeoutMs / 1000} s`);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Requests sent and not yet answered: queries waiting their turn included. */
  get queued(): number {
    return this.pending.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new EngineRestarted('the SPARQL engine stopped'));
    await this.worker.terminate();
  }

  private request(message: WithoutId<EngineRequest>, started?: () => void): Promise<Done> {
    const id = this.nextId++;
    return new Promise<Done>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, started });
      this.worker.postMessage({ ...message, id } as EngineRequest);
    });
  }

  /** Ends the engine's thread and starts an empty one; `restarted` tells the mirror to fill it again. */
  private restart(): void {
    const old = this.worker;
    old.removeAllListeners();
    void old.terminate();
    this.failAll(new EngineRestarted('the SPARQL engine restarted'));
    if (this.closed) return;
    this.worker = this.spawn();
    this.emit('restarted');
  }

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  private spawn(): Worker {
    const worker = startEngineWorker(this.data);
    worker.on('message', (reply: EngineReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      if ('started' in reply) return waiter.started?.();
      this.pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply);
      else waiter.reject(new EngineError(reply.error));
    });
    // Out of memory, or a fault in the engine: what was asked fails, and a new engine starts.
    worker.on('error', () => this.restart());
    worker.on('exit', () => { if (!this.closed) this.restart(); });
    return worker;
  }
}

/** As the import thread: built, the worker is engine-worker.js; from the sources, it registers tsx first. */
function startEngineWorker(data: EngineWorkerData): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? './engine-worker.ts' : './engine-worker.js', import.meta.url);
  if (!fromSource) return new Worker(entry, { workerData: data });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`,
    { eval: true, workerData: data });
}
