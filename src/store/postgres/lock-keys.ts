// Keys of PostgreSQL advisory locks, computed here rather than with the server's internal hashtext() so the
// backend relies only on documented functions. A collision only makes two unrelated edits wait for each
// other; it never lets a check be skipped.
import type { Entity } from '../../domain/entity.js';
import type { PolicyChecks } from '../store.js';

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;

/** 64-bit FNV-1a of the parts' UTF-8 bytes (NUL-separated), as the signed bigint advisory locks take. */
export function lockKey(...parts: string[]): bigint {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(parts.join('\u0000'), 'utf8')) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK;
  }
  return BigInt.asIntN(64, hash);
}

export const migrationLockKey = (schema: string): bigint => lockKey('entia', 'migrate', schema);

/** Held by an import's index build for its whole length, and shared by each batch that stages rows. */
export const importBuildLockKey = (schema: string): bigint => lockKey('entia', 'import-build', schema);

/**
 * One lock per (kind, language, label) the edit's uniqueness checks look at (docs/api.md §6.1), sorted so that
 * two transactions always take shared keys in the same order. Two edits that could create the same duplicate
 * share the label, hence the key: the second one's check runs after the first one committed.
 */
export function policyLockKeys(entity: Entity, checks: PolicyChecks): bigint[] {
  const keys = new Set<bigint>();
  for (const lang of checks.propertyLabelLanguages ?? []) {
    const label = entity.labels[lang];
    if (label !== undefined) keys.add(lockKey('policy', 'property', lang, label));
  }
  for (const lang of checks.labelDescriptionLanguages ?? []) {
    const label = entity.labels[lang];
    if (label !== undefined && entity.descriptions[lang] !== undefined) keys.add(lockKey('policy', 'item', lang, label));
  }
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
