// The thread that reads queries (query.ts: sparqljs's parser, then the Query Service's rewrites). Reading is
// synchronous and grows faster than the text (on 2026-11-28: 4,000 triple patterns, 59 KB, took 1.1 s; 2,000
// nested groups, 4 KB, 3.8 s and then overflowed the stack), so it runs here, not on the server's event loop,
// unless the text is short and shallow enough to read in a few milliseconds (readsAtOnce; sparql/preparer.ts).
import { parentPort } from 'node:worker_threads';
import { readQuery } from './query.js';
import type { PrepareReply, PrepareRequest } from './preparer.js';

parentPort!.on('message', ({ id, text, vocabulary, language }: PrepareRequest) => {
  parentPort!.postMessage({ id, ...readQuery(text, vocabulary, language) } satisfies PrepareReply);
});
// Loaded and listening: the server starts each query's time limit from here, not from the thread's start.
parentPort!.postMessage({ ready: true } satisfies PrepareReply);
