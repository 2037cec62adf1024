// The server's side of the thread that reads queries (prepare-worker.ts). WebAssembly aside, reading a query is
// the one part of SPARQL that would run on the server's event loop; a query whose reading outlasts its time
// limit ends the thread (a synchronous parse cannot be interrupted), and the queries waiting behind it are sent
// again to a new one. Only short, shallow queries, which read in a few milliseconds at worst, are read on the
// event loop (readsAtOnce).
import type { Worker } from 'node:worker_threads';
import type { RdfVocabulary } from '../domain/rdf-vocabulary.js';
import { startThread } from '../threads.js';
import { QueryTimeout } from './engine.js';
import { QueryRefused, readQuery, readsAtOnce, type PreparedQuery, type QueryReading } from './query.js';

export interface PrepareRequest { id: number; text: string; vocabulary: RdfVocabulary; language: string }
export type PrepareReply = ({ id: number } & QueryReading)
  /** The thread has loaded its module and takes queries. */
  | { ready: true };

interface Waiting {
  request: PrepareRequest;
  resolve: (prepared: PreparedQuery) => void;
  reject: (e: Error) => void;
  /** Set once the thread is ready: the limit bounds reading the query, not starting a thread to read it. */
  timer?: NodeJS.Timeout;
}

export class QueryPreparer {
  private thread: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  /**
   * Reads a query; rejects with QueryRefused (not SPARQL, an update), or QueryTimeout past `timeoutMs`. A short,
   * shallow one is read here at once (readsAtOnce): going to the thread would cost more than reading it.
   */
  prepare(text: string, vocabulary: RdfVocabulary, language: string, timeoutMs: number): Promise<PreparedQuery> {
    if (readsAtOnce(text)) {
      const reading = readQuery(text, vocabulary, language);
      return 'prepared' in reading ? Promise.resolve(reading.prepared)
        : Promise.reject(new QueryRefused(reading.refused.message, reading.refused.update));
    }
    const request = { id: this.nextId++, text, vocabulary, language };
    return new Promise<PreparedQuery>((resolve, reject) => {
      const waiting: Waiting = { request, resolve, reject };
      this.waiting.set(request.id, waiting);
      this.running().postMessage(request);
      // A new thread takes some 100 ms to load its module, more under load (seconds for a test run from the
      // TypeScript sources): a one-second limit was spent before reading began.
      void this.ready.then(() => {
        if (this.waiting.get(request.id) !== waiting) return;
        waiting.timer = setTimeout(() => {
          this.waiting.delete(request.id);
          reject(new QueryTimeout(`reading the query took longer than ${timeoutMs / 1000} s`));
          this.restart();
        }, timeoutMs);
      });
    });
  }

  async close(): Promise<void> {
    await this.failAll('the server is stopping');
  }

  private async failAll(why = 'the query could not be read: its reader failed'): Promise<void> {
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new QueryRefused(why));
    }
    this.waiting.clear();
    await this.stop();
  }

  /** Settles once the current thread has loaded (or failed: its queries fail then). */
  private ready: Promise<void> = Promise.resolve();

  private running(): Worker {
    if (this.thread) return this.thread;
    const thread = startThread(import.meta.url, 'prepare-worker');
    let loaded!: () => void;
    this.ready = new Promise((resolve) => { loaded = resolve; });
    thread.on('message', (reply: PrepareReply) => ('ready' in reply ? loaded() : this.answer(reply)));
    thread.on('exit', () => loaded());
    // A thread that failed (out of memory on a huge query): what it held fails, and the next query starts another.
    thread.on('error', () => this.failAll());
    thread.unref(); // an idle reader keeps no process alive
    this.thread = thread;
    return thread;
  }

  private answer(reply: Exclude<PrepareReply, { ready: true }>): void {
    const w = this.waiting.get(reply.id);
    if (!w) return;
    this.waiting.delete(reply.id);
    clearTimeout(w.timer);
    if ('prepared' in reply) w.resolve(reply.prepared);
    else w.reject(new QueryRefused(reply.refused.message, reply.refused.update));
  }

  /** A new thread, given every query still waiting. */
  private restart(): void {
    void this.stop();
    for (const w of this.waiting.values()) this.running().postMessage(w.request);
  }

  private async stop(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (!thread) return;
    thread.removeAllListeners();
    await thread.terminate();
  }
}
