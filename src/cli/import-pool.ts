// `entia import --threads N` (ADR 0022): N reading threads (import-reader.ts) parse the input's lines, convert
// each entity and, once its batch is settled on this thread, prepare it for the store: documents compressed,
// every index and search row derived, packed into one buffer that this thread passes on to the store's
// writing thread without reading it. This thread only cuts lines, settles batches (update modes, sitelinks two
// items claim, placeholders) and reports, in input order, exactly as a one-thread import does.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads.js';
import type { Candidate, Reading, ReadingSetup } from './import-reading.js';

/** Lines per request to a reading thread at most: large enough that messages cost little, small enough to spread. */
const CHUNK_LINES = 500;
/** Nor fewer than this: past it, messages cost more than the spread gains. */
const LEAST_CHUNK_LINES = 50;
/** Chunks read ahead per thread: each thread has the next one queued while this thread takes in the last. */
const AHEAD = 2;

/**
 * Lines per request for `threads` threads and batches of `batchSize`: with many threads, smaller chunks, so that
 * the entities read ahead (AHEAD chunks per thread, held until their batch is packed) stay about one batch, not
 * 64,000 entities on 64 threads.
 */
export function chunkLinesFor(threads: number, batchSize: number): number {
  return Math.max(LEAST_CHUNK_LINES, Math.min(CHUNK_LINES, Math.floor(batchSize / (AHEAD * threads))));
}

export interface ReaderSetup extends ReadingSetup {
  /** The input as messages about its lines name it. */
  path: string;
  /** The store's packer, and whether it packs for a deferred index build (PackedImports). */
  packer: 'sqlite' | 'postgres';
  deferIndexes: boolean;
}

export type ReaderRequest =
  | { type: 'read'; id: number; first: number; lines: string[] }
  /** Packs these lines' entities (in this order) with the sitelinks named taken out. */
  | { type: 'pack'; id: number; lines: number[]; leftOut: [line: number, sites: string[]][] }
  /** Lets go of the entities of lines up to this one that no batch will write. */
  | { type: 'release'; upTo: number };

export type ReaderReply =
  | { id: number; readings: Reading[] }
  | { id: number; packed: Uint8Array }
  | { id: number; error: string };

export class ReadingPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (reply: ReaderReply) => void; reject: (e: Error) => void }>();
  private requests = 0;
  private turn = 0;
  private broken: Error | null = null;

  constructor(threads: number, setup: ReaderSetup, private readonly chunkLines: number) {
    this.workers = Array.from({ length: threads }, () => {
      const worker = startThread(import.meta.url, 'import-reader', { workerData: setup });
      worker.on('message', (reply: ReaderReply) => this.settle(reply));
      worker.on('error', (e) => this.fail(e));
      worker.on('exit', () => this.fail(new Error('a reading thread of the import has ended')));
      return worker;
    });
  }

  /**
   * Reads every line after `skip` on the threads and hands each line's reading to `take`, in input order,
   * keeping AHEAD chunks per thread under way. `take` is told the input's last line once it is known.
   */
  async readAll(batches: AsyncIterable<string[]>, skip: number,
    take: (reading: Reading, lastLine: number | null) => Promise<void>): Promise<void> {
    const pending: Promise<{ worker: number; readings: Reading[] }>[] = [];
    const drain = async (lastLine: number | null) => {
      const { worker, readings } = await pending.shift()!;
      for (const reading of readings) {
        if (reading.outcome === 'candidate') reading.candidate.worker = worker;
        await take(reading, lastLine);
      }
    };
    let lineNo = 0;
    let chunk: string[] = [];
    const send = () => {
      pending.push(observed(this.read(lineNo - chunk.length + 1, chunk)));
      chunk = [];
    };
    for await (const batch of batches) {
      for (const line of batch) {
        if (++lineNo <= skip) continue;
        chunk.push(line);
        if (chunk.length < this.chunkLines) continue;
        send();
        while (pending.length > AHEAD * this.workers.length) await drain(null);
      }
    }
    if (chunk.length > 0) send();
    while (pending.length > 0) await drain(lineNo);
  }

  /**
   * The batch's slices, packed by the threads that hold its entities: one per run of candidates read by the
   * same thread, in batch order. Every thread then lets go of what it holds up to `upTo` that was not packed.
   */
  pack(kept: readonly Candidate[], leftOut: ReadonlyMap<Candidate, string[]>, upTo: number): Promise<Uint8Array>[] {
    const packs: Promise<Uint8Array>[] = [];
    for (let start = 0; start < kept.length;) {
      const worker = kept[start].worker!;
      let end = start + 1;
      while (end < kept.length && kept[end].worker === worker && end - start < this.chunkLines) end++;
      const run = kept.slice(start, end);
      const id = ++this.requests;
      packs.push(observed(this.ask(worker, { type: 'pack', id, lines: run.map((c) => c.line),
        leftOut: run.filter((c) => leftOut.has(c)).map((c) => [c.line, leftOut.get(c)!]) })
        .then((reply) => (reply as { packed: Uint8Array }).packed)));
      start = end;
    }
    for (const worker of this.workers) worker.postMessage({ type: 'release', upTo } satisfies ReaderRequest);
    return packs;
  }

  async close(): Promise<void> {
    this.broken ??= new Error('the import has ended');
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private async read(first: number, lines: string[]): Promise<{ worker: number; readings: Reading[] }> {
    const worker = this.turn;
    this.turn = (this.turn + 1) % this.workers.length;
    const reply = await this.ask(worker, { type: 'read', id: ++this.requests, first, lines });
    return { worker, readings: (reply as { readings: Reading[] }).readings };
  }

  private ask(worker: number, request: Extract<ReaderRequest, { id: number }>): Promise<ReaderReply> {
    if (this.broken) return Promise.reject(this.broken);
    const reply = new Promise<ReaderReply>((resolve, reject) => this.waiting.set(request.id, { resolve, reject }));
    this.workers[worker].postMessage(request);
    return reply;
  }

  private settle(reply: ReaderReply): void {
    const waiter = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if ('error' in reply) waiter?.reject(new Error(reply.error));
    else waiter?.resolve(reply);
  }

  private fail(e: Error): void {
    this.broken ??= e;
    for (const waiter of this.waiting.values()) waiter.reject(e);
    this.waiting.clear();
  }
}

/**
 * The promise, marked as looked after: an import stopped by an error closes the pool with requests under way,
 * whose rejections nobody awaits any more (the error that stopped it is the one reported).
 */
function observed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
