// Data extension and property proposals of the reconciliation service: cells from the stored statements.
import type { Statement } from '../../domain/entity.js';
import { ITEM, kindOfDataType, numericPart, parseEntityId, parseIdOfKind, PROPERTY } from '../../domain/kinds.js';
import type { Services } from '../services.js';
import { RECONCILE_LIMITS, type Json, Reader, bestStatements } from './reader.js';
import { badParameter } from './match.js';

// ---------------------------------------------------------------------------------------------------------------
// Data extension

/** ISO date of a stored time (`+1952-00-00T00:00:00Z` → `1952-01-01T00:00:00Z`), as the extension format asks. */
export function isoDate(time: string): string | null {
  const m = /^([+-])0*([0-9]+)-([0-9]{2})-([0-9]{2})T([0-9:]{8})Z$/.exec(time);
  if (!m) return null;
  const year = m[2].padStart(4, '0');
  const day = (v: string) => (v === '00' ? '01' : v);
  return `${m[1] === '-' ? '-' : ''}${year}-${day(m[3])}-${day(m[4])}T${m[5]}Z`;
}

export async function cellValue(reader: Reader, statement: Statement): Promise<Json | null> {
  if (statement.value.type !== 'value') return null;
  const content = statement.value.content;
  const dataType = statement.property['data-type'];
  if (typeof content === 'string') {
    if (kindOfDataType(dataType)) return { id: content, name: await reader.name(content) };
    return { str: content };
  }
  const c = (content ?? {}) as Json;
  if (typeof c.text === 'string') return { str: c.text };
  if (typeof c.amount === 'string') {
    const n = Number(c.amount);
    return Number.isSafeInteger(n) ? { int: n } : { float: n };
  }
  if (typeof c.time === 'string') {
    const date = isoDate(c.time);
    return date === null ? null : { date };
  }
  if (typeof c.latitude === 'number' && typeof c.longitude === 'number') return { str: `${c.latitude},${c.longitude}` };
  return null;
}

export async function extend(reader: Reader, request: Json): Promise<Json> {
  const { ids, properties } = request;
  if (!Array.isArray(ids) || ids.length > RECONCILE_LIMITS.extendIds || !Array.isArray(properties)
    || properties.length === 0 || properties.length > RECONCILE_LIMITS.extendProperties) badParameter('extend');
  const entityIds = (ids as unknown[]).map((id) => (typeof id === 'string' ? parseEntityId(id)?.id : undefined) ?? badParameter('extend'));
  const columns = (properties as unknown[]).map((p) => {
    const { id, settings } = (p ?? {}) as Json;
    const pid = typeof id === 'string' ? parseIdOfKind(PROPERTY, id) : null;
    const rawLimit = (settings as Json | undefined)?.limit ?? 0;
    const limit = Number(rawLimit);
    if (!pid || !Number.isInteger(limit) || limit < 0) badParameter('extend');
    return { pid: pid!, limit };
  });
  const meta = await Promise.all(columns.map(async (c) => ({ id: c.pid, name: await reader.name(c.pid) })));
  const rows: Json = {};
  for (const id of entityIds) {
    const entity = await reader.entity(id);
    const row: Json = {};
    for (const { pid, limit } of columns) {
      const values: Json[] = [];
      for (const statement of entity ? bestStatements(entity, pid) : []) {
        const value = await cellValue(reader, statement);
        if (value) values.push(value);
        if (limit > 0 && values.length >= limit) break;
      }
      row[pid] = values;
    }
    rows[id] = row;
  }
  return { meta, rows };
}

/** Properties most used by entities of a type (a sample of them), most used first. */
export async function proposeProperties(reader: Reader, type: string | null, limit: number, config: Services['config']): Promise<Json> {
  const sample = type === null ? await reader.store.entityIds(null, RECONCILE_LIMITS.proposeSample)
    : (await reader.store.statementValues.find({ kind: 'item', conditions: [{ property: config.instanceOf, key: type }],
      after: null, limit: RECONCILE_LIMITS.proposeSample })).map((n) => `${ITEM.prefix}${n}`);
  const counts = new Map<string, number>();
  for (const id of sample) {
    const entity = await reader.entity(id);
    for (const pid of entity?.properties() ?? []) counts.set(pid, (counts.get(pid) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1] || numericPart(a[0]) - numericPart(b[0])).slice(0, limit);
  const properties = await Promise.all(top.map(async ([id]) => ({ id, name: await reader.name(id) })));
  return { ...(type === null ? {} : { type }), limit, properties };
}
