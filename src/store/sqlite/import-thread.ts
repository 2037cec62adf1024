// Bulk import on two cores (issue #8). Preparing a batch (serialising documents, deriving every index and
// search row: prepared-import.ts) is JavaScript; writing it is SQLite. Here the writing runs on a worker thread
// with its own connection to the same file (import-worker.ts): it writes one prepared slice while this thread
// prepares the next, and commits the batch while the caller reads and parses the next one. Each batch is
// still one transaction, written or not as a whole; batches are written in the order they are given.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../threads.js';
import { PolicyViolation, type ImportExtras, type UniquenessViolation } from '../store.js';
import type { ImportRevision, PreparedImport } from './prepared-import.js';
import type { SqliteOptions } from './options.js';
import type { BuildStep } from '../store.js';

/** A slice prepared on this thread, or packed on another (packImportSlice). */
type Slice = PreparedImport | Uint8Array;

export type ImportMessage =
  | { type: 'begin'; batch: number; revision: ImportRevision }
  | { type: 'slice'; batch: number; prepared: Slice }
  /** `abort`: preparing failed on this side; roll back whatever was written. */
  | { type: 'commit'; batch: number; extras: ImportExtras }
  | { type: 'abort'; batch: number }
  /** Build the indexes the import deferred (deferred-index.ts); the worker reports each step, then replies. */
  | { type: 'build'; batch: number }
  | { type: 'close' };

/** The outcome of one batch; `error` as plain data, since error objects lose their class crossing threads. */
export interface ImportReply {
  batch: number;
  error?: { message: string; code?: string; violation?: UniquenessViolation };
  /** A build's progress: the reply is still to come. */
  step?: BuildStep;
}

export function describeError(e: unknown): NonNullable<ImportReply['error']> {
  if (e instanceof PolicyViolation) return { message: e.message, violation: e.detail };
  const { message, code } = e as { message?: string; code?: string };
  return { message: message ?? String(e), code };
}

function errorFrom(reply: NonNullable<ImportReply['error']>): Error {
  if (reply.violation) return new PolicyViolation(reply.violation);
  return Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
}

export class ImportThread {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void; onStep?: (step: BuildStep) => void }>();
  private batches = 0;
  private broken: Error | null = null;

  constructor(options: SqliteOptions) {
    this.worker = startWorker(options);
    this.worker.on('message', (reply: ImportReply) => this.settle(reply));
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', () => this.fail(new Error('the import thread has ended')));
    this.worker.unref(); // idle, it keeps no process alive (write() holds it while a batch is under way)
  }

  /**
   * Writes the slices as one transaction; resolves once it is committed. A slice prepared here is prepared on
   * demand and posted at once, so SQLite writes it while the next is prepared; one still to come (packed on
   * `entia import --threads`' reading threads) is awaited, then its bytes moved, not copied. A slice that fails
   * rolls the batch back, and the returned promise rejects with its error.
   */
  async write(revision: ImportRevision, slices: Iterable<Slice | Promise<Slice>>, extras: ImportExtras = {}): Promise<void> {
    if (this.broken) throw this.broken;
    const batch = ++this.batches;
    const written = new Promise<void>((resolve, reject) => this.waiting.set(batch, { resolve, reject }));
    this.worker.ref();
    this.post({ type: 'begin', batch, revision });
    try {
      for (const slice of slices) {
        const prepared = slice instanceof Promise ? await slice : slice;
        this.worker.postMessage({ type: 'slice', batch, prepared } satisfies ImportMessage, movable(prepared));
      }
    } catch (e) {
      this.post({ type: 'abort', batch });
      written.catch(() => {}); // the rollback's reply; the caller gets the error that stopped the preparing
      throw e;
    }
    this.post({ type: 'commit', batch, extras });
    return written;
  }

  /** Builds the deferred indexes on the import thread's connection, which holds the staged rows. */
  build(onStep?: (step: BuildStep) => void): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    const batch = ++this.batches;
    const built = new Promise<void>((resolve, reject) => this.waiting.set(batch, { resolve, reject, onStep }));
    this.worker.ref();
    this.post({ type: 'build', batch });
    return built;
  }

  async close(): Promise<void> {
    if (this.broken) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.ref();
    this.post({ type: 'close' });
    await exited;
  }

  private post(message: ImportMessage): void {
    this.worker.postMessage(message);
  }

  private settle(reply: ImportReply): void {
    const waiter = this.waiting.get(reply.batch);
    if (reply.step) {
      waiter?.onStep?.(reply.step);
      return;
    }
    this.waiting.delete(reply.batch);
    if (this.waiting.size === 0) this.worker.unref();
    if (reply.error) waiter?.reject(errorFrom(reply.error));
    else waiter?.resolve();
  }

  private fail(e: Error): void {
    this.broken ??= e;
    for (const waiter of this.waiting.values()) waiter.reject(e);
    this.waiting.clear();
  }
}

/** The worker is import-worker beside this file (src/threads.ts). */
function startWorker(options: SqliteOptions): Worker {
  return startThread(import.meta.url, 'import-worker', { workerData: options });
}

/** The buffer of a packed slice, to move rather than copy, when it holds nothing else. */
export function movable(slice: object): ArrayBuffer[] {
  if (!(slice instanceof Uint8Array)) return [];
  const { buffer, byteOffset, byteLength } = slice;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength ? [buffer] : [];
}
