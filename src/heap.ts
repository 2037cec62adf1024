// V8's heap settings for a serving process (ADR 0021, "Pretenuring" and "Heap growth"). V8's flags hold for
// every thread of the process, and V8 reads these two when a collection decides, so they take effect when set.
import { setFlagsFromString } from 'node:v8';

/**
 * Before `entia serve` builds the server. V8 allocates an object straight in the old generation once most
 * objects from its allocation site have outlived young-generation collections ("pretenuring"). A server's long
 * answers (a batch of 500 entities is sent over seconds) teach that to code every request shares, and short
 * requests after them then fill the old generation with garbage until its next full collection: a batch load
 * followed by lookups took the process from 185 to 223 MB, the old generation from 26 to 107 MB.
 */
export function servingHeap(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * Once no thread of the process holds a large heap on purpose (the embedded SPARQL engine's RDF writer, which
 * keeps up to ENTIA_SPARQL_MEMORY / 16 characters of RDF: SPARQL off, an external engine, or the embedded one
 * refused for the store's size). V8 lets a heap of a large limit grow to four times what a full collection
 * leaves; the main thread keeps some 70 MB of caches while it edits, and peaked at 390 MB. Grown by half, the
 * 1,000,000-item bench store's reads, queries and edits peaked at 287-302 MB, against 346-490 MB grown to
 * twice, for a few more full collections of that small heap; the RDF writer, with its heap collected that
 * often, was slower (ADR 0021).
 */
export function compactHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
