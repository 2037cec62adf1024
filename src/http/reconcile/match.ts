// Reconcile queries (W3C Reconciliation Service API 0.2): their parameters parsed, candidates from the search
// index, property conditions and types checked on the stored entities, scores from search/reconcile.ts.
import type { FastifyRequest } from 'fastify';
import { fail } from '../../domain/errors.js';
import { ITEM, kindOfDataType, numericPart, parseIdOfKind, PROPERTY } from '../../domain/kinds.js';
import { isTermLanguage } from '../../domain/languages.js';
import { statementValueKeys, valueKeyOf } from '../../domain/statement-values.js';
import { parseText } from '../../search/query.js';
import { candidateScore, isMatch, nameScore } from '../../search/reconcile.js';
import { foldText, wordsOf } from '../../search/text.js';
import { searchableText } from '../../search/searchable.js';
import type { Services } from '../services.js';
import { RECONCILE_LIMITS, DEFAULT_LIMIT, TYPE_DEPTH, TYPE_VISITS, type EntityView, type Json, Reader, itemValues } from './reader.js';

// ---------------------------------------------------------------------------------------------------------------
// Parsing

export function badParameter(parameter: string): never {
  return fail('invalid-query-parameter', { parameter });
}

/** A parameter from the query string or the form/JSON body (OpenRefine posts them as a form). */
export function parameter(req: FastifyRequest, name: string): unknown {
  const body = req.body as Json | undefined;
  const fromBody = body && typeof body === 'object' ? body[name] : undefined;
  return fromBody ?? (req.query as Json)[name];
}

/** `queries` and `extend` arrive as JSON text (a form field, a query parameter) or, in a JSON body, as objects. */
export function jsonParameter(req: FastifyRequest, name: string): Json | undefined {
  const raw = parameter(req, name);
  if (raw === undefined) return undefined;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Json;
  if (typeof raw !== 'string') badParameter(name);
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Json;
  } catch { /* answered below */ }
  return badParameter(name);
}

export function languageOf(req: FastifyRequest): string {
  const lang = (req.query as Json).lang ?? 'en';
  if (typeof lang !== 'string' || !isTermLanguage(lang, 'search')) badParameter('lang');
  return lang as string;
}

/** Text a search can take: bounded like `q` of the search routes. */
export function searchText(text: unknown, parameterName: string): string {
  return searchableText(text) ?? badParameter(parameterName);
}

export interface PropertyCondition { pid: string; values: (string | { id: string })[] }

export interface ReconcileQuery {
  query: string;
  types: string[];
  strict: 'any' | 'all' | 'should';
  limit: number;
  properties: PropertyCondition[];
}

export function parseQuery(raw: unknown): ReconcileQuery {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) badParameter('queries');
  const q = raw as Json;
  const query = searchText(q.query, 'queries');
  const rawTypes = q.type === undefined || q.type === null ? [] : Array.isArray(q.type) ? q.type : [q.type];
  const types = rawTypes.map((t) => (typeof t === 'string' ? parseIdOfKind(ITEM, t) : null) ?? badParameter('queries'));
  const strict = q.type_strict ?? 'should';
  if (strict !== 'any' && strict !== 'all' && strict !== 'should') badParameter('queries');
  const limit = q.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > RECONCILE_LIMITS.candidates) badParameter('queries');
  const rawProperties = q.properties ?? [];
  if (!Array.isArray(rawProperties) || rawProperties.length > RECONCILE_LIMITS.properties) badParameter('queries');
  const properties = (rawProperties as unknown[]).map((p): PropertyCondition => {
    const { pid, v } = (p ?? {}) as Json;
    const id = typeof pid === 'string' ? parseIdOfKind(PROPERTY, pid) : null;
    const values = (Array.isArray(v) ? v : [v]).map((value) => {
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      if (typeof value === 'object' && value !== null && typeof (value as Json).id === 'string') return { id: (value as Json).id as string };
      return badParameter('queries');
    });
    if (!id || values.length === 0) badParameter('queries');
    return { pid: id!, values };
  });
  return { query, types, strict: strict as ReconcileQuery['strict'], limit: limit as number, properties };
}

// ---------------------------------------------------------------------------------------------------------------
// Reconciling

/** The classes an entity is an instance of, directly or through subclass-of chains at most TYPE_DEPTH long. */
export async function classesOf(reader: Reader, entity: EntityView, config: Services['config']): Promise<Set<string>> {
  const seen = new Set<string>();
  let frontier = itemValues(entity, config.instanceOf);
  for (let depth = 0; depth <= TYPE_DEPTH && frontier.length > 0 && seen.size < TYPE_VISITS; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id) || seen.size >= TYPE_VISITS) continue;
      seen.add(id);
      const cls = await reader.entity(id);
      if (cls) next.push(...itemValues(cls, config.subclassOf));
    }
    frontier = next;
  }
  return seen;
}

export async function propertyMatches(reader: Reader, entity: EntityView, condition: PropertyCondition): Promise<boolean> {
  const group = entity.statements(condition.pid);
  if (group.length === 0) return false;
  const keys = new Set(statementValueKeys({ statements: { [condition.pid]: [...group] } }).map((k) => k.key));
  const dataType = group[0]?.property['data-type'] ?? null;
  for (const value of condition.values) {
    if (typeof value === 'object') {
      if (keys.has(value.id.toUpperCase())) return true;
      continue;
    }
    const key = valueKeyOf(value.trim(), dataType);
    if (key !== null && key !== '' && keys.has(key)) return true;
    // An item value given by its name: compared with the value items' labels and aliases, folded.
    if (kindOfDataType(dataType)) {
      for (const id of itemValues(entity, condition.pid)) {
        const target = await reader.entity(id);
        if (target && nameScore(value, reader.names(target)) === 100) return true;
      }
    }
  }
  return false;
}

export interface Candidate { id: string; name: string; description?: string; type: { id: string; name: string }[]; score: number; match: boolean }

/**
 * Candidate ids from search: `wanted` matches of the whole text, then, when that finds fewer than `minimum` (the
 * query's limit), those of its longest word alone.
 */
export async function candidateIds(reader: Reader, text: string, wanted: number, minimum: number): Promise<string[]> {
  const search = async (t: string) => {
    const id = parseIdOfKind(ITEM, t);
    const hits = await reader.store.search({ kind: 'item', mode: 'search', text: parseText(t), entityId: id ? numericPart(id) : null,
      languages: reader.languages, limit: wanted, offset: 0 });
    return hits.map((h) => h.id);
  };
  const ids = await search(text);
  const words = wordsOf(foldText(text));
  if (ids.length < minimum && words.length > 1) {
    const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
    if (longest.length >= 3) for (const id of await search(longest)) if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

export async function reconcileOne(reader: Reader, q: ReconcileQuery, config: Services['config']): Promise<Candidate[]> {
  // Twice the page, at least 10: enough for scores to reorder the search's ranking, few enough to read each one.
  const wanted = Math.min(RECONCILE_LIMITS.candidates, Math.max(q.limit * 2, 10));
  const candidates: Candidate[] = [];
  for (const id of await candidateIds(reader, q.query, wanted, q.limit)) {
    const entity = await reader.entity(id);
    if (!entity) continue;
    if (q.types.length > 0) {
      const classes = await classesOf(reader, entity, config);
      const holds = q.strict === 'all' ? q.types.every((t) => classes.has(t)) : q.types.some((t) => classes.has(t));
      if (!holds) continue;
    }
    const matches: boolean[] = [];
    for (const condition of q.properties) matches.push(await propertyMatches(reader, entity, condition));
    const types = await Promise.all(itemValues(entity, config.instanceOf).map(async (t) => ({ id: t, name: await reader.name(t) })));
    const description = reader.description(entity);
    const names = reader.names(entity);
    candidates.push({ id, name: reader.label(entity) ?? names[0] ?? id, ...(description === null ? {} : { description }),
      type: types, score: candidateScore(nameScore(q.query, names), matches), match: false });
  }
  // Best score first; ties in id order, so that the same store always answers the same.
  candidates.sort((a, b) => b.score - a.score || numericPart(a.id) - numericPart(b.id));
  const page = candidates.slice(0, q.limit);
  if (page.length > 0) page[0].match = isMatch(candidates.map((c) => c.score));
  return page;
}

export async function reconcileBatch(reader: Reader, batch: Json, config: Services['config']): Promise<Json> {
  const keys = Object.keys(batch);
  if (keys.length === 0 || keys.length > RECONCILE_LIMITS.queries) badParameter('queries');
  const queries = keys.map((k) => parseQuery(batch[k]));
  // No prototype: a query may be named `__proto__`, and its answer must be a member like any other.
  const out: Json = Object.create(null);
  for (let i = 0; i < keys.length; i++) out[keys[i]] = { result: await reconcileOne(reader, queries[i], config) };
  return out;
}
