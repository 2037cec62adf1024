// The benchmark's data file: generated once per (generator version, seed, size) under bench/results/data/
// and reused by later runs, since generating a million entities takes minutes and measures nothing.
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION, propertyCount, writeDataset } from './generate.js';

export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

export interface Dataset {
  path: string;
  seed: number;
  items: number;
  properties: number;
  entities: number;
  bytes: number;
  /** Seconds spent generating it in this run; 0 when an earlier run's file was reused. */
  generateSeconds: number;
}

export async function ensureDataset(seed: number, items: number): Promise<Dataset> {
  const dir = join(RESULTS_DIR, 'data');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `entities-v${GENERATOR_VERSION}-seed${seed}-items${items}.jsonl`);
  const properties = propertyCount(items);
  const base = { path, seed, items, properties, entities: properties + items };
  if (existsSync(path)) return { ...base, bytes: statSync(path).size, generateSeconds: 0 };
  const started = performance.now();
  // Written under a temporary name, so an interrupted run never leaves a truncated file to reuse.
  const partial = `${path}.partial`;
  const { bytes } = await writeDataset(partial, seed, items);
  renameSync(partial, path);
  return { ...base, bytes, generateSeconds: (performance.now() - started) / 1000 };
}
