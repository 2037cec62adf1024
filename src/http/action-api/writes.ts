// The Action API's edit modules (docs/api.md §10.15). Each one only says how its parameters change an entity's
// document; the rest is the REST routes' edit path: the document is parsed by the same domain parsers as an
// entity PATCH (every value, language, site and badge checked the same way), then written by commitEdit (data
// policy, size, rate limit, one atomic revision) in the entity's turn (runEdit), with the same permissions.
import { ITEM, parseEntityId } from '../../domain/kinds.js';
import { runEdit } from '../edit-queue.js';
import { RedirectRefused } from '../../store/store.js';
import { wbmergeitems } from './merge.js';
import { entityIdOf, refuse, required, type Json, type WriteCall } from './protocol.js';
import { setTerm, wbeditentity, wbsetaliases, wbsetsitelink } from './write-terms.js';
import { wbcreateclaim, wbremoveclaims, wbremovequalifiers, wbremovereferences, wbsetclaim, wbsetclaimvalue, wbsetqualifier, wbsetreference } from './write-claims.js';

/** Turns an empty item into a redirect to another item (what a merge leaves behind). */
async function wbcreateredirect(call: WriteCall): Promise<Json> {
  const from = entityIdOf(required(call.params, 'from'));
  const to = entityIdOf(required(call.params, 'to'));
  if (parseEntityId(from)!.kind !== ITEM || parseEntityId(to)!.kind !== ITEM) refuse('target-is-incompatible', 'Only items can be redirected.');
  if (from === to) refuse('cant-redirect-self', 'An item cannot redirect to itself.');
  await runEdit(call.edits, call.store, from, async () => {
    const source = await call.store.readEntity(from, 'edit');
    if (source.status === 'missing') refuse('no-such-entity', `Could not find an entity with the ID "${from}".`, { id: from });
    if (source.status === 'found') {
      const e = source.entity;
      const empty = [e.labels, e.descriptions, e.aliases, e.statements, e.sitelinks ?? {}].every((m) => Object.keys(m).length === 0);
      if (!empty) refuse('not-empty', `${from} is not empty: only an empty item can become a redirect.`);
    }
    const target = await call.store.readEntity(to, 'read');
    if (target.status === 'missing') refuse('no-such-entity', `Could not find an entity with the ID "${to}".`, { id: to });
    if (target.status === 'redirect') refuse('target-is-redirect', `${to} is itself a redirect.`);
    await call.ctx.services.guard.authorize(call.ctx, from);
    await call.ctx.services.guard.consume(call.ctx, false);
    try {
      await call.store.redirectEntity(from, to, call.meta);
    } catch (e) {
      // The store checks the target again where it writes: another redirect may have come first.
      if (!(e instanceof RedirectRefused)) throw e;
      if (e.reason === 'target-is-redirect') refuse('target-is-redirect', `${to} is itself a redirect.`);
      refuse('no-such-entity', `Could not find an entity with the ID "${to}".`, { id: to });
    }
  });
  return { success: 1, redirected: 1, from, to };
}

export const WRITE_MODULES: Record<string, (call: WriteCall) => Promise<Json>> = {
  wbeditentity,
  wbsetlabel: setTerm('labels'),
  wbsetdescription: setTerm('descriptions'),
  wbsetaliases,
  wbsetsitelink,
  wbcreateclaim,
  wbsetclaim,
  wbsetclaimvalue,
  wbremoveclaims,
  wbsetqualifier,
  wbremovequalifiers,
  wbsetreference,
  wbremovereferences,
  wbcreateredirect,
  wbmergeitems,
};
