// action=wbmergeitems (docs/api.md §10.15): the merge the REST route POST …/merge makes (write/merge.ts), with
// Wikibase's parameters, answer and error codes.
import { ITEM } from '../../domain/kinds.js';
import { MERGE_CONFLICTS, type MergeConflict } from '../../domain/merge.js';
import { isEntiaError } from '../../domain/errors.js';
import { mergeItems } from '../write/index.js';
import { entityIdOf, list, param, refuse, required, type Json, type WriteCall } from './protocol.js';

function itemId(call: WriteCall, name: string): string {
  return entityIdOf(required(call.params, name), ITEM);
}

export async function wbmergeitems(call: WriteCall): Promise<Json> {
  const from = itemId(call, 'fromid');
  const to = itemId(call, 'toid');
  const raw = param(call.params, 'ignoreconflicts');
  const ignore = new Set<MergeConflict>();
  for (const kind of raw === undefined ? [] : list(raw)) {
    if (!(MERGE_CONFLICTS as readonly string[]).includes(kind)) refuse('badvalue', `Unrecognized value for parameter "ignoreconflicts": ${kind}.`);
    ignore.add(kind as MergeConflict);
  }
  if (from === to) refuse('cant-merge-self', 'You cannot merge an item with itself.');
  const done = await mergeItems(call.ctx, { from, to, ignore, meta: call.meta }).catch((e) => {
    if (isEntiaError(e) && e.code === 'merge-conflict') refuse('failed-modify', e.text + describeConflict(e.context as Json));
    throw e;
  });
  const entity = (id: string, head: { revision: number }) => ({ id, type: 'item', lastrevid: head.revision });
  return {
    success: 1, redirected: done.source.redirected ? 1 : 0,
    from: entity(from, done.source.head), to: entity(to, done.target.head),
  };
}

function describeConflict(context: Json): string {
  const detail = context.conflict_context as Json;
  return ` (${Object.entries(detail).map(([key, value]) => `${key}: ${String(value)}`).join(', ')})`;
}
