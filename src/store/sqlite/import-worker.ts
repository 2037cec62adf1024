// The import thread (import-thread.ts): its own connection to the store's file, writing prepared batches in
// the order they come, each in one transaction that spans its messages (begin, slices, commit).
import { parentPort, workerData } from 'node:worker_threads';
import { describeError, type ImportMessage, type ImportReply } from './import-thread.js';
import { openSqliteStore, type SqliteOptions } from './index.js';
import { unpackSlice, type ImportRevision } from './prepared-import.js';
import type { ImportExtras } from '../store.js';

const port = parentPort!;
const store = openSqliteStore(workerData as SqliteOptions);

/** The batch under way: its revision fields, and the first error (later slices are skipped, then rolled back). */
let current: { batch: number; revision: ImportRevision; failed: unknown } | null = null;

const reply = (message: ImportReply) => port.postMessage(message);

function attempt(write: () => void): void {
  if (!current || current.failed) return;
  try {
    write();
  } catch (e) {
    current.failed = e;
  }
}

function finish(commit: boolean, extras: ImportExtras = {}): void {
  if (!current) return;
  const { batch } = current;
  if (commit) attempt(() => store.imports.writeImportExtras(extras));
  if (commit) attempt(() => store.q.commit.run());
  const failed = current.failed ?? (commit ? null : new Error('import aborted'));
  if (store.db.inTransaction) store.q.rollback.run();
  current = null;
  reply(failed ? { batch, error: describeError(failed) } : { batch });
}

port.on('message', (message: ImportMessage) => {
  switch (message.type) {
    case 'begin':
      current = { batch: message.batch, revision: message.revision, failed: null };
      attempt(() => store.q.begin.run());
      return;
    case 'slice':
      attempt(() => store.imports.writePrepared(unpackSlice(message.prepared), current!.revision));
      return;
    case 'commit':
      finish(true, message.extras);
      return;
    case 'abort':
      finish(false);
      return;
    case 'build':
      try {
        store.imports.buildDeferred((step) => reply({ batch: message.batch, step }));
        reply({ batch: message.batch });
      } catch (e) {
        reply({ batch: message.batch, error: describeError(e) });
      }
      return;
    case 'close':
      void store.close().then(() => port.close());
  }
});
