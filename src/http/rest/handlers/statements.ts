// Statements (docs/api.md §10.4): an entity's statement list, and one statement by id in three scopes — under an
// item, under a property, and without naming the entity (/v1/statements/{statement_id}). One resolver turns
// every single-statement path into (subject, statement id); one check then answers 404 / 308 for all of them.
import { fail } from '../../../domain/errors.js';
import { parseEntityId, parseIdOfKind, PROPERTY, type Kind } from '../../../domain/kinds.js';
import { applyPatch } from '../../../domain/patch.js';
import { BODY, inMode, PATCH } from '../../../domain/problems.js';
import {
  checkReplacement, findStatement, statementIdIgnoringCase, withoutStatement, withReplacedStatement, withStatement,
  type Located,
} from '../../../domain/statement-edits.js';
import {
  keepingStoredReferences, newStatementId, parseStatement, parseStatementId, patchedStatement, replaceStatement,
} from '../../../domain/statements.js';
import type { Statement } from '../../../domain/entity.js';
import type { ReadResult, EntityStore } from '../../../store/store.js';
import type { Committed } from '../../write/commit.js';
import { lookupFor } from '../../lookup.js';
import { EmptyReply, type Ctx, type Result } from '../../context.js';
import { loadEntity, pathEntityId, requireFound, type Found } from '../../subject.js';
import { pathEntityParameter } from '../../path-parameters.js';
import { PATCH_DOCUMENT, PATH_ENTITY, write, type SubjectRule } from '../../write/rows.js';

// ---- The statement list of an entity -------------------------------------------------------------------

/** §10.4: `?property=P<n>` keeps one group; malformed → 400, a property without statements → `{}`. */
function propertyFilter(ctx: Ctx<unknown>): string | null {
  const raw = ctx.query.property;
  if (raw === undefined) return null;
  const id = typeof raw === 'string' ? parseIdOfKind(PROPERTY, raw) : null;
  return id ?? fail('invalid-query-parameter', { parameter: 'property' });
}

export async function getStatements(ctx: Ctx<EntityStore>): Promise<Result> {
  const id = pathEntityId(ctx);
  const read = await loadEntity(ctx, id, true);
  const property = propertyFilter(ctx);
  const { entity, head } = requireFound(ctx, read, id, true);
  if (property === null) return { body: entity.statements, head };
  const group = entity.statements[property];
  return { body: group ? { [property]: group } : {}, head };
}

/** POST: a new statement, appended to its property's group; 201 with its Location. */
export const addStatement = write({
  subject: PATH_ENTITY, // a redirected item: 409 redirected-item (§10.4)
  body: {
    part: 'statement',
    parse: async (ctx, { located: { id } }) => {
      const input = ctx.body.statement;
      const lookup = await lookupFor(ctx.store, ctx.services.config, input);
      // §6.3: an `id` in the body is ignored; the server names the statement.
      return inMode(BODY, () => parseStatement(input, '/statement', lookup, { id: newStatementId(id) }));
    },
  },
  change: ({ subject: { entity }, body: statement }) => withStatement(entity, statement),
  respond: (done, { body: statement }, ctx) => ({
    status: 201, body: statement, head: done.head,
    headers: { location: `${ctx.services.config.publicUrl}/v1/entities/${ctx.kind.segment}/${done.entity.id}/statements/`
      + encodeURIComponent(statement.id) }, // §11: `$` travels as %24
  }),
});

// ---- One statement, in any of the three scopes ---------------------------------------------------------

/** Where a single-statement path points. */
interface Target {
  subjectId: string;
  subjectKind: Kind;
  /** The statement id as the path gave it (NFC), for messages and the §9.2 case comparison. */
  requested: string;
  /** Long routes name the subject; the short route leaves it to the statement index. */
  isLong: boolean;
  /** Long route whose statement id names another entity than the path (D6). */
  mismatch: boolean;
}

/** Path → (subject, statement id). 400s only: the entity id first, then the statement id (§10.4, §7.7). */
function resolveTarget(ctx: Ctx<unknown>): Target {
  const isLong = pathEntityParameter(ctx.params) !== undefined;
  const pathEntity = isLong ? pathEntityId(ctx) : null;
  const requested = ctx.params.statement_id;
  const parsed = parseStatementId(requested);
  if (!parsed) return fail('invalid-statement-id', undefined, { id: requested });
  if (pathEntity !== null) {
    return { subjectId: pathEntity, subjectKind: ctx.kind, requested, isLong, mismatch: parsed.subjectId !== pathEntity };
  }
  // A statement id names the entity that holds it (§3); the entity's document is searched for it, also in
  // another letter case (§9.2).
  const { subjectId } = parsed;
  return { subjectId, subjectKind: parseEntityId(subjectId)!.kind, requested, isLong, mismatch: false };
}

interface Opened {
  target: Target;
  read: ReadResult;
}

/** Resolves the path and loads the subject; the subject's revision decides the preconditions (§8). */
async function openStatement(ctx: Ctx<EntityStore>, isRead: boolean): Promise<Opened> {
  const target = resolveTarget(ctx);
  return { target, read: await loadEntity(ctx, target.subjectId, isRead) };
}

/**
 * The one subject check (§7.7 end of step 5, step 6; §9.1, §9.2): prefix mismatch, subject missing or a
 * redirect, then the statement itself — found, found but for letter case (308), or missing.
 */
function requireStatement(ctx: Ctx<unknown>, { target, read }: Opened): { subject: Found } & Located {
  const notFound = (): never => fail('statement-not-found', undefined, { id: target.requested });
  // D6: the contract says not found; upstream's dialect says which ids do not match (dialect.ts).
  if (target.mismatch) fail('statement-not-found', undefined, { id: target.requested, subject: target.subjectId });
  if (read.status === 'missing' && target.isLong) {
    fail(target.subjectKind.codes.notFound, undefined, { id: target.subjectId });
  }
  if (read.status !== 'found') return notFound(); // also a redirected subject, on every verb (§9.1)
  const located = findStatement(read.entity, target.requested);
  if (located) return { subject: { entity: read.entity, head: read.head }, ...located };
  const stored = statementIdIgnoringCase(read.entity, target.requested);
  if (stored) throw new EmptyReply(308, { location: withStatementId(ctx, stored) });
  return notFound();
}

/**
 * §9.2: the request URL with the statement id (always the last path segment) replaced, query kept. The `$`
 * travels as the client sent it, literal or as %24, as upstream does.
 */
function withStatementId(ctx: Ctx<unknown>, id: string): string {
  const [path, ...query] = ctx.url.split('?');
  const cut = path.lastIndexOf('/') + 1;
  const dollar = /%24/i.test(path.slice(cut)) ? '%24' : '$';
  const segment = id.split('$').map(encodeURIComponent).join(dollar);
  return `${ctx.services.config.publicUrl}${path.slice(0, cut)}${segment}${query.length ? `?${query.join('?')}` : ''}`;
}

/** The statement a PUT replaces, when the path names one that exists: its values need no existence check. */
function storedStatement({ target, read }: Opened): Statement[] {
  if (read.status !== 'found' || target.mismatch) return [];
  const located = findStatement(read.entity, target.requested);
  return located ? [located.statement] : [];
}

export async function getStatement(ctx: Ctx<EntityStore>): Promise<Result> {
  const opened = await openStatement(ctx, true);
  const { subject, statement } = requireStatement(ctx, opened);
  return { body: statement, head: subject.head };
}

/** The subject of a single-statement write: the entity holding the statement the path names. */
const PATH_STATEMENT: SubjectRule<Target & { id: string }> = {
  locate: (ctx) => {
    const target = resolveTarget(ctx);
    return { id: target.subjectId, ...target }; // the new member first (ADR 0021)
  },
  exists: (ctx, target, read) => {
    const { subject, statement } = requireStatement(ctx, { target, read });
    return { statement, ...subject }; // the new member first (ADR 0021)
  },
};

/** The statement a write of one statement answers with: as stored after the edit (its id cannot change). */
function storedAfter(done: Committed, id: string): Result {
  return { body: findStatement(done.entity, id)!.statement, head: done.head };
}

/** PUT: the body is fully validated before the statement is looked up (400 before 404, docs/api.md §10.4). */
export const putStatement = write({
  subject: PATH_STATEMENT,
  body: {
    part: 'statement',
    parse: async (ctx, { located: target, read }) => {
      const input = ctx.body.statement;
      const lookup = keepingStoredReferences(await lookupFor(ctx.store, ctx.services.config, input), storedStatement({ target, read: read! }));
      inMode(BODY, () => checkReplacement(input, '/statement', lookup, target.requested));
      return { input, lookup };
    },
  },
  // Now that the stored statement is known: its property cannot change (§10.4).
  change: ({ subject, body: { input, lookup } }) =>
    withReplacedStatement(subject.entity, inMode(BODY, () => replaceStatement(subject.statement!, input, '/statement', lookup))),
  respond: (done, { subject }) => storedAfter(done, subject.statement!.id),
});

/** PATCH: §10.6, the document is the statement as GET returns it. */
export const patchStatement = write({
  subject: PATH_STATEMENT,
  body: PATCH_DOCUMENT,
  change: async ({ subject, body: operations }, ctx) => {
    const stored = subject.statement!;
    const patched = applyPatch(stored, operations);
    const lookup = keepingStoredReferences(await lookupFor(ctx.store, ctx.services.config, patched), [stored]);
    return withReplacedStatement(subject.entity, inMode(PATCH, () => patchedStatement(stored, patched, lookup)));
  },
  respond: (done, { subject }) => storedAfter(done, subject.statement!.id),
});

export const deleteStatement = write({
  subject: PATH_STATEMENT,
  change: ({ subject }) => withoutStatement(subject.entity, subject.statement!.id),
  respond: (done) => ({ body: 'Statement deleted', head: done.head, headers: { 'content-language': 'en' } }),
});
