// A small seeded PRNG (sfc32, seeded through splitmix32) with the draws the generator needs. Each entity
// gets its own stream derived from (seed, entity number), so any entity can be regenerated on its own and
// the output does not depend on generation order.

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [lo, hi], inclusive. */
  int(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(list: readonly T[]): T;
  /** A key drawn by weight. */
  weighted(table: WeightTable): string;
  /** A Zipf-like draw in [1, n]: P(k) ∝ 1/k (popular targets first). */
  zipf(n: number): number;
  /** `length` characters of lower-case hexadecimal. */
  hex(length: number): string;
}

/** Cumulative weights, built once per table and reused for every draw. */
export interface WeightTable {
  keys: readonly string[];
  cumulative: readonly number[];
}

export function weightTable(weights: Readonly<Record<string, number>>): WeightTable {
  const keys = Object.keys(weights);
  let total = 0;
  const cumulative = keys.map((k) => (total += weights[k]));
  return { keys, cumulative: cumulative.map((c) => c / total) };
}

const HEX = '0123456789abcdef';

/** sfc32: four 32-bit words of state, a fast generator with good statistical quality. */
class Sfc32 implements Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream: number) {
    const mix = splitmix32((seed * 0x9e3779b1) ^ Math.imul(stream, 0x85ebca77));
    this.a = mix();
    this.b = mix();
    this.c = mix();
    this.d = mix();
    for (let i = 0; i < 12; i++) this.next();
  }

  next(): number {
    const t0 = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    const t = (t0 + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  weighted(table: WeightTable): string {
    const u = this.next();
    let lo = 0;
    let hi = table.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (table.cumulative[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return table.keys[lo];
  }

  zipf(n: number): number {
    return Math.min(n, Math.floor(Math.exp(this.next() * Math.log(n + 1)))) || 1;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[Math.floor(this.next() * 16)];
    return out;
  }
}

/** The stream of entity `stream` under `seed`. */
export function rngFor(seed: number, stream: number): Rng {
  return new Sfc32(seed, stream);
}
