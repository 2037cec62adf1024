// The thread that reads queries (query.ts: sparqljs's parser, then the Query Service's rewrites). Reading is
// synchronous and grows faster than the text (on 2026-11-28: 4,000 triple patterns, 59 KB, took 1.1 s; 2,000
// nested groups, 4 KB, 3.8 s and then overflowed the stack), so it runs here, never on the server's event loop
// (sparql/preparer.ts).
import { parentPort } from 'node:worker_threads';
import { NESTED_TOO_DEEPLY, prepareQuery, QueryRefused } from './query.js';
import type { PrepareReply, PrepareRequest } from './preparer.js';

parentPort!.on('message', ({ id, text, vocabulary, language }: PrepareRequest) => {
  let reply: PrepareReply;
  try {
    reply = { id, prepared: prepareQuery(text, vocabulary, language) };
  } catch (e) {
    const refused = e instanceof QueryRefused ? e
      : new QueryRefused(e instanceof RangeError ? NESTED_TOO_DEEPLY : `the query could not be read: ${(e as Error).message}`);
    reply = { id, refused: { message: refused.message, update: refused.update } };
  }
  parentPort!.postMessage(reply);
});
// Loaded and listening: the server starts each query's time limit from here, not from the thread's start.
parentPort!.postMessage({ ready: true } satisfies PrepareReply);
