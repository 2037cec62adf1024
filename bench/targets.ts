// The entities the read and edit benchmarks address, shared by bench/run.ts and bench/postgres.ts: both
// derive them from the seed alone, so that every run and every backend reads and edits the same items.
import { generateItem, generatorContext, isLarge } from './generate.js';
import { rngFor } from './prng.js';

/** The regular item with an English label whose JSON is closest to 10 KB, among the first few hundred. */
export function typicalItem(seed: number, items: number): { id: string; bytes: number } {
  const ctx = generatorContext(seed, items);
  let best = { id: 'Q1', bytes: 0, distance: Infinity };
  for (let n = 1; n <= Math.min(items, 400); n++) {
    if (isLarge(n)) continue;
    const entity = generateItem(ctx, n);
    if (entity.labels.en === undefined) continue;
    const bytes = Buffer.byteLength(JSON.stringify(entity));
    if (Math.abs(bytes - 10_240) < best.distance) best = { id: entity.id, bytes, distance: Math.abs(bytes - 10_240) };
  }
  return { id: best.id, bytes: best.bytes };
}

/** A uniformly random regular item id, from a seeded stream so that runs address the same items. */
export function randomItems(seed: number, items: number, stream: number): () => string {
  const rng = rngFor(seed, 1_000_000_000 + stream);
  return () => {
    let n = rng.int(1, items);
    if (isLarge(n)) n = n === items ? n - 1 : n + 1;
    return `Q${n}`;
  };
}
