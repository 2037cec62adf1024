// Runs a QuickStatements batch (docs/api.md §10.17) through the one edit path: the commands of one entity that
// follow each other are one group, applied to the entity's document one at a time (each checked by the same
// parser as a PATCH, so a bad command is reported and the others still apply), and the group is written as one
// revision by the write pipeline (write/index.ts), with the batch's id in its comment. CREATE and the LAST commands
// after it are one creation; MERGE is the pipeline's merge. Every command's outcome is reported.
import { randomBytes } from 'node:crypto';
import { sameJson, type Entity, type Statement } from '../../domain/entity.js';
import { patchedEntity, parseNewEntity } from '../../domain/entity-input.js';
import { EntiaError, isEntiaError } from '../../domain/errors.js';
import { ITEM, parseEntityId, type Kind } from '../../domain/kinds.js';
import { BODY, inMode } from '../../domain/problems.js';
import { contractValue, refusalOf, type QsCommand, type QsLine, type QsSnak } from '../../domain/quickstatements.js';
import { parseStatementId } from '../../domain/statements.js';
import type { EditMeta } from '../../store/store.js';
import { copyDocument, editableDocument, emptyDocument, type Doc } from '../document-edit.js';
import { createEntity, editEntity, mergeItems, type Committed } from '../write/index.js';
import { rulesFor } from '../write/rules.js';
import { COMMENT_MAX_BYTES } from '../meta.js';
import type { Ctx } from '../context.js';

type Json = Record<string, unknown>;

export interface CommandResult {
  line: number;
  command: string;
  status: 'done' | 'failed';
  /** The entity the command edited (a CREATE's: the new item). */
  entity?: string;
  /** The revision that holds it. */
  revision?: number;
  error?: { code: string; message: string; context?: unknown };
}

export interface BatchResult {
  batch: string;
  done: number;
  failed: number;
  commands: CommandResult[];
}

type Runnable = QsLine & { command: QsCommand };
type Group =
  | { kind: 'create'; lines: Runnable[] }
  | { kind: 'edit'; target: string; lines: Runnable[] }
  | { kind: 'merge'; lines: [Runnable] };

/** What the groups share while a batch runs. */
interface BatchState {
  id: string;
  meta: EditMeta;
  /** The item the latest CREATE made, which LAST names. */
  last: string | null;
  results: Map<QsLine, CommandResult>;
}

export function newBatchId(): string {
  return randomBytes(5).toString('hex');
}

/** Runs the batch's commands in order; `meta` is the request's (its comment says what the whole batch is for). */
export async function runBatch(ctx: Ctx, lines: readonly QsLine[], meta: EditMeta, id = newBatchId()): Promise<BatchResult> {
  const state: BatchState = { id, meta, last: null, results: new Map() };
  for (const line of lines) {
    if (line.command.op === 'invalid') state.results.set(line, failed(line, new EntiaError('invalid-quickstatements-command', { reason: line.command.reason })));
  }
  for (const group of groups(lines.filter((l): l is Runnable => l.command.op !== 'invalid'))) {
    // Each group spends its own edit of the rate budget (the guard charges a context once).
    const groupCtx: Ctx = { ...ctx };
    try {
      if (group.kind === 'merge') await runMerge(groupCtx, group.lines[0], state);
      else await runEntityGroup(groupCtx, group, state);
    } catch (e) {
      const error = isEntiaError(e) ? e : new EntiaError('unexpected-error', undefined);
      for (const line of group.lines) state.results.set(line, failed(line, error));
      if (!isEntiaError(e)) throw e;
    }
  }
  const commands = lines.map((line) => state.results.get(line)!);
  const done = commands.filter((c) => c.status === 'done').length;
  return { batch: id, done, failed: commands.length - done, commands };
}

/** Consecutive commands of one entity; CREATE with the LAST commands right after it. */
function groups(lines: Runnable[]): Group[] {
  const out: Group[] = [];
  let current: Group | null = null;
  for (const line of lines) {
    const command = line.command;
    if (command.op === 'create') {
      out.push(current = { kind: 'create', lines: [line] });
      continue;
    }
    if (command.op === 'merge') {
      out.push({ kind: 'merge', lines: [line] });
      current = null;
      continue;
    }
    const target = command.op === 'remove-statement' ? parseStatementId(command.statementId)?.subjectId ?? command.statementId : command.entity;
    if (target === 'LAST' && current?.kind === 'create') current.lines.push(line);
    else if (current?.kind === 'edit' && current.target === target) current.lines.push(line);
    else out.push(current = { kind: 'edit', target, lines: [line] });
  }
  return out;
}

async function runMerge(ctx: Ctx, line: Runnable, state: BatchState): Promise<void> {
  const { from, into } = line.command as Extract<QsCommand, { op: 'merge' }>;
  const done = await mergeItems(ctx, { from, to: into, ignore: new Set(), meta: groupMeta(state, [line]) });
  state.results.set(line, { line: line.line, command: line.text, status: 'done', entity: into, revision: done.target.head.revision });
}

/**
 * One entity's commands, applied one by one to its document and written as one revision by the write pipeline
 * (write/index.ts). The pipeline re-runs the change from the read when another edit of the entity came first, so
 * what applied is collected per run.
 */
async function runEntityGroup(ctx: Ctx, group: Exclude<Group, { kind: 'merge' }>, state: BatchState): Promise<void> {
  const creation = group.kind === 'create' ? [group.lines[0]] : [];
  let run: GroupRun = { next: null, failed: new Map(), applied: [] };
  const meta = () => groupMeta(state, [...creation, ...run.applied]);
  let done: Committed | null;
  if (group.kind === 'create') {
    done = await createEntity(ctx, { meta, change: async () => (run = await applyGroup(ctx, ITEM, null, group.lines, state)).next! });
    state.last = done.entity.id;
  } else {
    const target = group.target === 'LAST' ? state.last : group.target;
    const kind = target ? parseEntityId(target)?.kind : undefined;
    if (!target || !kind) {
      throw new EntiaError('invalid-quickstatements-command', { reason: target ? `not an entity id: ${target}` : 'LAST: no item was created before it' });
    }
    done = await editEntity(ctx, { id: target, meta, change: async ({ entity }) => (run = await applyGroup(ctx, kind, entity, group.lines, state)).next });
  }
  for (const [line, result] of run.failed) state.results.set(line, result);
  if (!done) return;
  for (const line of [...creation, ...run.applied]) {
    state.results.set(line, { line: line.line, command: line.text, status: 'done', entity: done.entity.id, revision: done.head.revision });
  }
}

/** What one run of a group's commands made: the entity to write (null: nothing applied to an existing one). */
interface GroupRun {
  next: Entity | null;
  applied: Runnable[];
  failed: Map<Runnable, CommandResult>;
}

async function applyGroup(ctx: Ctx, kind: Kind, original: Entity | null, lines: Runnable[], state: BatchState): Promise<GroupRun> {
  const failedLines = new Map<Runnable, CommandResult>();
  let doc = original ? editableDocument(original, ctx.services.sites) : { ...emptyDocument(true), type: 'item' };
  let next: Entity | null = null;
  const applied: Runnable[] = [];
  for (const line of lines) {
    if (line.command.op === 'create') continue;
    try {
      const changed = await applyCommand(ctx, kind, original, doc, line.command, state);
      [doc, next] = [changed.doc, changed.entity];
      applied.push(line);
    } catch (e) {
      failedLines.set(line, failed(line, asError(e)));
    }
  }
  // A CREATE alone makes an empty item, as QuickStatements' does.
  if (!next && !original) next = await validated(ctx, kind, null, doc);
  return { next, applied, failed: failedLines };
}

/** The document after one command, and the entity it reads as; throws what is wrong with the command. */
async function applyCommand(ctx: Ctx, kind: Kind, original: Entity | null, doc: Doc, command: QsCommand, state: BatchState): Promise<{ doc: Doc; entity: Entity }> {
  const changed = copyDocument(doc);
  switch (command.op) {
    case 'term': setTerm(changed, command);
      break;
    case 'sitelink':
      if (!kind.hasSitelinks) refuse(`${kind.segment} have no sitelinks`);
      setSitelink(changed, command);
      break;
    case 'remove-statement':
      if (!removeStatements(changed, (s) => String(s.id).toUpperCase() === command.statementId.toUpperCase())) refuse(`no statement ${command.statementId}`);
      break;
    case 'statement':
      return applyStatement(ctx, kind, original, changed, command, state);
    default:
      refuse(`${command.op} is not an edit of one entity`);
  }
  return { doc: changed, entity: await validated(ctx, kind, original, changed) };
}

/**
 * A statement added (or, with `-`, removed) by value. As QuickStatements does, a statement the entity already has
 * with that property and value gains the command's qualifiers and sources instead of being added again. Values are
 * compared as stored, so the command's statement is first read as a new one, which normalises it.
 */
async function applyStatement(ctx: Ctx, kind: Kind, original: Entity | null, doc: Doc, command: Extract<QsCommand, { op: 'statement' }>,
  state: BatchState): Promise<{ doc: Doc; entity: Entity }> {
  const types = await ctx.store.lookupEntities([command.property, ...command.qualifiers.map((q) => q.property),
    ...command.references.flat().map((r) => r.property)]);
  const group = [...(doc.statements[command.property] ?? [])];
  const input = {
    property: { id: command.property }, value: valueFor(ctx, types, command.property, command.value, state),
    qualifiers: command.qualifiers.map((q) => snakInput(ctx, types, q, state)),
    references: command.references.map((parts) => ({ parts: parts.map((p) => snakInput(ctx, types, p, state)) })),
  };
  doc.statements[command.property] = [...group, input];
  const withNew = await validated(ctx, kind, original, doc);
  // The group as read (values normalised), in the document's order, then the command's statement.
  const read = withNew.statements[command.property];
  const added = read.at(-1)!;
  const matching = group.map((_, i) => sameJson(read[i].value, added.value));
  if (command.remove) {
    doc.statements[command.property] = group.filter((_, i) => !matching[i]);
    if (!matching.includes(true)) refuse(`no ${command.property} statement with this value`);
    if (doc.statements[command.property].length === 0) delete doc.statements[command.property];
    return { doc, entity: await validated(ctx, kind, original, doc) };
  }
  const at = matching.indexOf(true);
  if (at < 0) return { doc, entity: withNew };
  doc.statements[command.property] = group;
  group[at] = withSubSnaks(group[at], read[at], input, added);
  return { doc, entity: await validated(ctx, kind, original, doc) };
}

/**
 * The held statement (as the document has it) with the command's qualifiers and references it does not have yet,
 * compared as read (`held`, `added`: the same statements normalised).
 */
function withSubSnaks(doc: Json, held: Statement, input: { qualifiers: Json[]; references: Json[] }, added: Statement): Json {
  const key = (s: Statement['qualifiers'][number]) => JSON.stringify([s.property.id, s.value]);
  const hasQualifier = new Set(held.qualifiers.map(key));
  const hasReference = new Set(held.references.map((r) => r.hash));
  return {
    ...doc,
    qualifiers: [...(doc.qualifiers as Json[] ?? []), ...input.qualifiers.filter((_, i) => !hasQualifier.has(key(added.qualifiers[i])))],
    references: [...(doc.references as Json[] ?? []), ...input.references.filter((_, i) => !hasReference.has(added.references[i].hash))],
  };
}

function valueFor(ctx: Ctx, types: Map<string, string | null>, property: string, value: QsSnak['value'], state: BatchState): unknown {
  const dataType = types.get(property);
  if (dataType === undefined || dataType === null) refuse(`no property ${property}`);
  return contractValue(value, dataType!, ctx.services.config.conceptUri, state.last);
}

function snakInput(ctx: Ctx, types: Map<string, string | null>, snak: QsSnak, state: BatchState): Json {
  return { property: { id: snak.property }, value: valueFor(ctx, types, snak.property, snak.value, state) };
}

function setTerm(doc: Doc, command: Extract<QsCommand, { op: 'term' }>): void {
  const { field, language, text } = command;
  if (field === 'aliases') {
    const held = (doc.aliases[language] as string[] | undefined) ?? [];
    if (!command.remove) {
      if (!held.includes(text)) doc.aliases[language] = [...held, text];
      return;
    }
    if (!held.includes(text)) refuse(`no ${language} alias "${text}"`);
    doc.aliases[language] = held.filter((a) => a !== text);
    return;
  }
  const terms = doc[field] as Json;
  if (!command.remove) {
    terms[language] = text;
    return;
  }
  if (terms[language] !== text) refuse(`the ${language} ${field === 'labels' ? 'label' : 'description'} is not "${text}"`);
  delete terms[language];
}

function setSitelink(doc: Doc, command: Extract<QsCommand, { op: 'sitelink' }>): void {
  const sitelinks = doc.sitelinks as Record<string, { title: string; badges: string[] }>;
  const held = sitelinks[command.site];
  if (command.remove) {
    if (!held || (command.title !== '' && held.title !== command.title)) refuse(`no ${command.site} sitelink "${command.title}"`);
    delete sitelinks[command.site];
    return;
  }
  sitelinks[command.site] = { title: command.title, badges: held?.title === command.title ? held.badges : [] };
}

function removeStatements(doc: Doc, matches: (s: Json) => boolean): boolean {
  let removed = false;
  for (const [property, group] of Object.entries(doc.statements)) {
    const kept = group.filter((s) => !matches(s));
    if (kept.length === group.length) continue;
    removed = true;
    if (kept.length) doc.statements[property] = kept;
    else delete doc.statements[property];
  }
  return removed;
}

/** The document read as the entity it now describes, by the rules of a PATCH (or of a creation). */
async function validated(ctx: Ctx, kind: Kind, original: Entity | null, doc: Doc): Promise<Entity> {
  const rules = await rulesFor(ctx, doc, original ?? undefined);
  return inMode(BODY, () => original ? patchedEntity(kind, original, doc, rules) : parseNewEntity(kind, doc, rules));
}

/** The group's comment: the batch (so its edits can be found), the request's comment, the commands' own. */
function groupMeta(state: BatchState, lines: readonly QsLine[]): EditMeta {
  const said = [state.meta.comment, ...lines.map((l) => l.comment)].filter((c): c is string => Boolean(c));
  return { ...state.meta, comment: clipped(`quickstatements batch #${state.id}${said.length ? `: ${[...new Set(said)].join('; ')}` : ''}`) };
}

/** A comment cut to the revision comment's limit in bytes, at a whole character, with an ellipsis. */
function clipped(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= COMMENT_MAX_BYTES) return text;
  // By code point, so that no surrogate pair is cut in two.
  const chars = Array.from(text.slice(0, COMMENT_MAX_BYTES + 1));
  while (Buffer.byteLength(`${chars.join('')}…`, 'utf8') > COMMENT_MAX_BYTES) chars.pop();
  return `${chars.join('')}…`;
}

function refuse(reason: string): never {
  throw new EntiaError('invalid-quickstatements-command', { reason });
}

function asError(e: unknown): EntiaError {
  if (isEntiaError(e)) return e;
  const reason = refusalOf(e);
  if (reason !== null) return new EntiaError('invalid-quickstatements-command', { reason });
  throw e;
}

function failed(line: QsLine, error: EntiaError): CommandResult {
  const context = error.context as unknown;
  return { line: line.line, command: line.text, status: 'failed',
    error: { code: error.code, message: error.text, ...(context === undefined ? {} : { context }) } };
}
