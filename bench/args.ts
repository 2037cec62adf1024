// Command-line flags of the bench scripts: `--name value` pairs, numbers checked.
import { DEFAULT_SEED } from './generate.js';
export function flagReader(argv: string[]) {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (name: string, fallback: number): number => {
    const v = value(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, got ${v}`);
    return n;
  };
  return { value, num };
}

/** What every HTTP bench script takes: data size and seed, and how long and how hard to load the server. */
export interface RunOptions {
  items: number;
  seed: number;
  duration: number;
  warmup: number;
  connections: number;
}

export function runOptions(num: ReturnType<typeof flagReader>['num'],
  defaults: { items: number; duration: number; warmup: number }): RunOptions {
  return {
    items: num('items', defaults.items),
    seed: num('seed', DEFAULT_SEED),
    duration: num('duration', defaults.duration),
    warmup: num('warmup', defaults.warmup),
    connections: num('connections', 10),
  };
}
