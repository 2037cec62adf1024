// The store's counts (GET /metrics, StoreStatistics) from the rows either backend counts: one row per kind and
// redirect-or-not, every kind of the kind table present, even with none.
import { KINDS, type KindName } from '../domain/kinds.js';
import type { StoreStatistics } from './store.js';

export interface KindCount {
  kind: KindName;
  redirect: boolean | number;
  n: number | string;
}

export function storeStatistics(counts: readonly KindCount[], unindexed: number, importsUnfinished: number): StoreStatistics {
  const zero = () => Object.fromEntries(KINDS.map((k) => [k.name, 0])) as Record<KindName, number>;
  const stats: StoreStatistics = { entities: zero(), redirects: zero(), unindexed, importsUnfinished };
  for (const r of counts) (r.redirect ? stats.redirects : stats.entities)[r.kind] = Number(r.n);
  return stats;
}
