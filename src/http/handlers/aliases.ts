// POST `/{entity}/aliases/{language_code}` (docs/api.md §10.3): adds aliases to one language, for items and
// properties alike. Reads and PATCH of aliases are the generic term handlers of terms.ts; there is no PUT
// or DELETE (those answer 405 from the route table).
import { BODY, inMode } from '../../domain/problems.js';
import { parseAliasList } from '../../domain/terms.js';
import { commitEdit } from '../edit.js';
import type { Ctx, Result } from '../route.js';
import { beginEdit, requireEditable } from '../subject.js';
import { pathLanguage, withTerms } from './terms.js';

/**
 * Appends the new aliases after the existing ones, dropping duplicates (docs/api.md §6.1). 201 when the language
 * had no aliases before, 200 otherwise; adding only aliases that already exist is a no-op (§2.3).
 */
export async function addAliases(ctx: Ctx): Promise<Result> {
  const { id, read, params: lang, meta } = await beginEdit(ctx, () => pathLanguage(ctx, 'aliases'));
  const added = inMode(BODY, () => parseAliasList(ctx.body.aliases, '/aliases'));
  const found = await requireEditable(ctx, read, id);
  const existing = found.entity.aliases[lang] ?? [];
  const aliases = { ...found.entity.aliases, [lang]: [...new Set([...existing, ...added])] };
  const done = await commitEdit(ctx, { previous: found, next: withTerms(found.entity, 'aliases', aliases), meta });
  return { status: existing.length === 0 ? 201 : 200, body: done.entity.aliases[lang], head: done.head };
}
