// action=wbcheckconstraints (docs/api.md §10.18): the checks of http/constraints.ts in WikibaseQualityConstraints'
// answer, so that the gadgets and tools that read Wikidata's constraint reports read Entia's: per entity, per
// claim, the results of its main snak, of each qualifier (grouped by property) and of each reference's snaks.
import type { Entity, Statement } from '../../domain/entity.js';
import { parseStatementId } from '../../domain/statements.js';
import { toWikidataClaim } from '../../domain/wikidata-export.js';
import { violationsOf, type Violation } from '../constraints.js';
import { hashedClaim, storedSnakHash } from './claims.js';
import { entityIdOf, list, param, refuse, type Call, type Json } from './protocol.js';

const STATUSES = ['violation', 'warning', 'suggestion', 'bad-parameters'];
const MAX_ENTITIES = 50;

export async function wbcheckconstraints({ params, store, services }: Call): Promise<Json> {
  if (services.config.constraints === 'off') refuse('badvalue', 'Constraint checks are off on this server.');
  // Each list at most MAX_ENTITIES values, as MediaWiki limits a multi-value parameter, before any is parsed.
  const multi = (name: string) => {
    const values = list(param(params, name));
    if (values.length > MAX_ENTITIES) refuse('toomanyvalues', `Too many values supplied for parameter "${name}". The limit is ${MAX_ENTITIES}.`);
    return values;
  };
  const claimIds = multi('claimid');
  const statements = claimIds.map((raw) => parseStatementId(raw) ?? refuse('invalid-guid', `Invalid claim id "${raw}".`));
  const ids = [...new Set([...multi('id').map((raw) => entityIdOf(raw)), ...statements.map((s) => s.subjectId)])];
  if (ids.length === 0) refuse('param-missing', 'Either provide the entity "id" or the "claimid".');
  if (ids.length > MAX_ENTITIES) refuse('toomanyvalues', `Too many values supplied for parameter "id". The limit is ${MAX_ENTITIES}.`);
  const statuses = new Set(param(params, 'status') === undefined ? STATUSES : list(param(params, 'status')));
  for (const s of statuses) if (!STATUSES.includes(s)) refuse('badvalue', `Unrecognized value for parameter "status": ${s}.`);
  const constraintIds = new Set(multi('constraintid').map((c) => c.toUpperCase()));
  const onlyClaims = new Set(statements.map((s) => s.id.toUpperCase()));
  const out: Json = {};
  for (const id of ids) {
    const read = await store.readEntity(id);
    if (read.status !== 'found') refuse('no-such-entity', `Could not find an entity with the ID "${id}".`, { id });
    const violations = (await violationsOf(store, services.config.constraintVocabulary, read.entity, services.constraintCaches)).filter((v) =>
      statuses.has(v.status) && (constraintIds.size === 0 || constraintIds.has(v.constraint.id.toUpperCase()))
      && (onlyClaims.size === 0 || onlyClaims.has(v.statement.toUpperCase())));
    out[id] = { claims: claimsWithResults(read.entity, violations, services.config.publicUrl) };
  }
  return { wbcheckconstraints: out, success: 1 };
}


/** Each claim with a violation, in the dump format's shape, its snaks carrying their results. */
function claimsWithResults(entity: Entity, violations: Violation[], publicUrl: string): Json {
  const claims: Record<string, Json[]> = {};
  for (const [property, group] of Object.entries(entity.statements)) {
    for (const statement of group) {
      const own = violations.filter((v) => v.statement === statement.id);
      if (own.length === 0) continue;
      (claims[property] ??= []).push(claimWithResults(entity, statement, own, publicUrl));
    }
  }
  return claims;
}

function claimWithResults(entity: Entity, statement: Statement, violations: Violation[], publicUrl: string): Json {
  const results = (at: number[]) => violations.filter((v) => v.at.join() === at.join()).map((v) => result(v, publicUrl));
  const claim = hashedClaim(toWikidataClaim(statement, entity.source) ?? {});
  const out: Json = { id: statement.id, mainsnak: { hash: (claim.mainsnak as Json | undefined)?.hash, results: results([]) } };
  const qualifiers: Record<string, Json[]> = {};
  statement.qualifiers.forEach((q, i) => {
    (qualifiers[q.property.id] ??= []).push({ hash: storedSnakHash(q, statement.id, entity.source), results: results([i]) });
  });
  if (statement.qualifiers.length) out.qualifiers = qualifiers;
  out.references = statement.references.map((reference, r) => {
    const snaks: Record<string, Json[]> = {};
    reference.parts.forEach((part, p) => {
      (snaks[part.property.id] ??= []).push({ hash: storedSnakHash(part, statement.id, entity.source), results: results([r, p]) });
    });
    return { hash: reference.hash, snaks };
  });
  return out;
}

function result(v: Violation, publicUrl: string): Json {
  const property = v.constraint.property;
  return {
    status: v.status, property: v.constraint.property,
    constraint: {
      id: v.constraint.id, type: v.constraint.typeItem, typeLabel: `${v.constraint.type} constraint`,
      link: `${publicUrl}/${property}#${encodeURIComponent(v.constraint.id)}`, discussLink: `${publicUrl}/${property}`,
    },
    'message-html': escapeHtml(v.message),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
