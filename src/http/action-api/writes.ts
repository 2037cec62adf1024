// The Action API's edit modules (docs/api.md §10.15). Each one only says how its parameters change an entity's
// document; the rest is the REST routes' edit path: the document is parsed by the same domain parsers as an
// entity PATCH (every value, language, site and badge checked the same way), then written by the write pipeline
// (write/index.ts: the entity's turn, permission, data policy, size, rate limit, one atomic revision).
import { RedirectRefusal, type RedirectRefusalReason } from '../../domain/redirect.js';
import { redirectItem } from '../write/index.js';
import { wbmergeitems } from './merge.js';
import { ApiError, entityIdOf, noSuchEntity, required, type Json, type WriteCall } from './protocol.js';
import { setTerm, wbeditentity, wbsetaliases, wbsetsitelink } from './write-terms.js';
import { wbcreateclaim, wbremoveclaims, wbremovequalifiers, wbremovereferences, wbsetclaim, wbsetclaimvalue, wbsetqualifier, wbsetreference } from './write-claims.js';

/** What each refusal of the redirect rules is called in the Action API (Wikibase's RedirectCreationInteractor). */
const REDIRECT_CODES: Record<RedirectRefusalReason, string> = {
  'self': 'cant-redirect-self',
  'kind-cannot-redirect': 'target-is-incompatible',
  'source-missing': 'no-such-entity',
  'not-empty': 'not-empty',
  'target-missing': 'no-such-entity',
  'target-is-redirect': 'target-is-redirect',
};

/** Turns an empty item into a redirect to another (what a merge leaves behind): the pipeline's redirect. */
async function wbcreateredirect(call: WriteCall): Promise<Json> {
  const from = entityIdOf(required(call.params, 'from'));
  const to = entityIdOf(required(call.params, 'to'));
  try {
    await redirectItem(call.ctx, { from, to, meta: call.meta });
  } catch (e) {
    if (!(e instanceof RedirectRefusal)) throw e;
    const code = REDIRECT_CODES[e.reason];
    throw code === 'no-such-entity' ? noSuchEntity(e.id) : new ApiError(code, e.message);
  }
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
