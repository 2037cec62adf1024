// POST `/{entity}/aliases/{language_code}` (docs/api.md §10.3): adds aliases to one language, for items and
// properties alike. Reads and PATCH of aliases are the generic term handlers of terms.ts; there is no PUT
// or DELETE (those answer 405 from the route table).
import { BODY, inMode } from '../../../domain/problems.js';
import { parseAliasList } from '../../../domain/terms.js';
import { PATH_ENTITY, write } from '../../write/rows.js';
import { pathLanguage, withTerms } from './terms.js';

/**
 * Appends the new aliases after the existing ones, dropping duplicates (docs/api.md §6.1). 201 when the language
 * had no aliases before, 200 otherwise; adding only aliases that already exist is a no-op (§2.3).
 */
export const addAliases = write({
  subject: PATH_ENTITY,
  param: (ctx) => pathLanguage(ctx, 'aliases'),
  body: { part: 'aliases', parse: (ctx) => inMode(BODY, () => parseAliasList(ctx.body.aliases, '/aliases')) },
  change: ({ subject: { entity }, param: lang, body: added }) =>
    withTerms(entity, 'aliases', { ...entity.aliases, [lang]: [...new Set([...(entity.aliases[lang] ?? []), ...added])] }),
  respond: (done, { subject, param: lang }) => ({
    status: (subject.entity.aliases[lang] ?? []).length === 0 ? 201 : 200, body: done.entity.aliases[lang], head: done.head,
  }),
});
