// THE error table: every error code Entia can answer with, its HTTP status, its message template and the
// context keys it carries (docs/api.md §7). The domain raises codes; only http/reply-error.ts reads `status`.
// Message templates name their placeholders in braces; they are filled from the context and from `params`.
// A retired code stays in the table with `retired: true` and is never reused.

interface ErrorRow {
  status: number;
  message: string;
  /** Context keys the code requires; an empty list means the response has no `context` at all. */
  context: readonly string[];
  /** Framework-level errors also carry upstream's `errorKey`/`httpCode`/`httpReason` (docs/api.md §2.6, §7.6). */
  framework?: boolean;
  retired?: boolean;
}

function row<const K extends readonly string[]>(status: number, message: string, context: K, framework = false) {
  return { status, message, context, framework };
}

export const ERRORS = {
  // Path and query parameters (docs/api.md §7.1)
  'invalid-item-id': row(400, 'Not a valid item ID: {id}', []),
  'invalid-property-id': row(400, 'Not a valid property ID: {id}', []),
  'invalid-statement-id': row(400, 'Not a valid statement ID: {id}', []),
  'invalid-language-code': row(400, 'Not a valid language code: {code}', []),
  'invalid-site-id': row(400, 'Not a valid site ID: {id}', []),
  'invalid-query-parameter': row(400, "Invalid query parameter: '{parameter}'", ['parameter']),
  'item-not-found': row(404, 'Could not find an item with the ID: {id}', []),
  'property-not-found': row(404, 'Could not find a property with the ID: {id}', []),
  'statement-not-found': row(404, 'Could not find a statement with the ID: {id}', []),
  'label-not-defined': row(404, '{noun} with the ID {id} does not have a label in the language: {lang}', []),
  'description-not-defined': row(404, '{noun} with the ID {id} does not have a description in the language: {lang}', []),
  'aliases-not-defined': row(404, '{noun} with the ID {id} does not have aliases in the language: {lang}', []),
  'sitelink-not-defined': row(404, 'No sitelink found for the ID: {id} for the site {site_id}', []),
  'invalid-revision-id': row(400, 'Not a valid revision ID: {id}', []),
  'revision-not-found': row(404, 'Could not find a revision with the ID {id} of {entity}', []),

  // Creation bodies (spec §7; docs/api.md D7/D8)
  'invalid-item-data': row(400, 'The provided item data is invalid', []),
  'invalid-property-data': row(400, 'The provided property data is invalid', []),

  // Request bodies (docs/api.md §7.3)
  'invalid-value': row(400, "Invalid value at '{path}'", ['path']),
  'missing-field': row(400, 'Required field missing', ['path', 'field']),
  'value-too-long': row(400, 'The input value is too long', ['path', 'limit']),
  'invalid-key': row(400, "Invalid key '{key}' in '{path}'", ['path', 'key']),
  'cannot-modify-read-only-value': row(400, 'The input value cannot be modified', ['path']),
  'statement-group-property-id-mismatch': row(400, "Statement's Property ID does not match the Statement group key",
    ['path', 'statement_group_property_id', 'statement_property_id']),
  'referenced-resource-not-found': row(400, 'The referenced resource does not exist', ['path']),
  'resource-too-large': row(400, 'Edit resulted in a resource that exceeds the size limit of {limit} kB', ['limit']),
  'missing-user-agent': row(400, 'Request must include User-Agent header', []),

  // Patches (docs/api.md §7.4)
  'patch-test-failed': row(409, 'Test operation in the provided patch failed', ['path', 'actual_value']),
  'patch-target-not-found': row(409, 'Target not found on resource', ['path']),
  'patch-result-invalid-value': row(422, 'Invalid value in patch result', ['path', 'value']),
  'patch-result-missing-field': row(422, 'Required field missing in patch result', ['path', 'field']),
  'patch-result-invalid-key': row(422, 'Invalid key in patch result', ['path', 'key']),
  'patch-result-value-too-long': row(422, 'Patched value is too long', ['path', 'limit']),
  'patch-result-modified-read-only-value': row(422, 'Read only value in patch result cannot be modified', ['path']),
  'patch-result-referenced-resource-not-found': row(422, 'The referenced resource does not exist', ['path', 'value']),
  'patched-statement-group-property-id-mismatch': row(422, "Statement's Property ID does not match the Statement group key",
    ['path', 'statement_group_property_id', 'statement_property_id']),

  // Policy, state and server (docs/api.md §7.5)
  'permission-denied': row(403, 'Access to resource is denied', ['denial_reason', 'denial_context']),
  'redirected-item': row(409, 'Item {id} has been redirected to {redirect_target}', ['redirect_target']),
  // Merges (docs/api.md §9.4)
  'merge-into-self': row(400, 'Item {id} cannot be merged into itself', []),
  'merge-conflict': row(409, 'The items cannot be merged: conflicting {conflict}', ['conflict', 'conflict_context']),
  // Undo (docs/api.md §10.9)
  'undo-conflict': row(409, 'The edit cannot be undone: {parts} changed since', ['parts']),
  // Property constraints (docs/api.md §10.18)
  'constraint-checks-off': row(404, 'Constraint checks are off on this server', []),
  'constraint-violation': row(422, 'Edit breaks a mandatory constraint: {message}', ['constraint_id', 'constraint_type', 'statement_id', 'property_id']),
  // QuickStatements batches (docs/api.md §10.17)
  'invalid-quickstatements-command': row(400, 'The QuickStatements command cannot be run: {reason}', ['reason']),
  'data-policy-violation': row(422, 'Edit violates data policy', ['violation', 'violation_context']),
  'request-limit-reached': row(429, 'Exceeded the limit of actions that can be performed in a given span of time', ['reason']),
  'unexpected-error': row(500, 'Unexpected Error', []),

  // SPARQL (docs/api.md §11)
  'invalid-sparql-query': row(400, 'The query is not valid SPARQL: {reason}', ['reason']),
  'sparql-update-refused': row(403, 'This endpoint is read only: SPARQL Update is not accepted', []),
  'sparql-unavailable': row(503, 'SPARQL is not available: {reason}', ['reason']),
  'sparql-busy': row(503, 'Too many SPARQL queries are running or waiting; try again shortly', []),
  'sparql-behind': row(503, 'The SPARQL engine has not yet applied the change asked for with after', ['after', 'applied']),
  'query-timeout': row(503, 'The query ran longer than the limit of {limit} seconds', ['limit']),
  'query-result-too-large': row(422, 'The result exceeds the limit of {limit} bytes; add a LIMIT', ['limit']),
  'query-exhausted-engine': row(422, 'The query needed more memory than the SPARQL engine has, and the engine restarted; narrow it or add a LIMIT', []),

  // Framework level (docs/api.md §2.6, §7.6)
  'rest-no-match': row(404, 'The requested relative path ({path}) did not match any known handler', [], true),
  'rest-wrong-method': row(405, 'The requested method ({method}) is not allowed for the path ({path})', [], true),
  'rest-unsupported-content-type': row(415, 'Unsupported Content-Type: {type}', [], true),
  'request-body-too-large': row(413, 'The request body exceeds the limit of {limit} bytes', ['limit']),
  'invalid-request-body': row(400, 'The request body is not valid JSON', []),
  // Connection level (issue #7): answered before any route is matched, so the framework's own bodies never show.
  'malformed-request': row(400, 'The request is not well-formed HTTP', []),
  'request-timeout': row(408, 'The request was not received in time', []),
  'request-header-too-large': row(431, 'The request line and headers exceed the size limit', []),
  'expectation-failed': row(417, 'The Expect header names an expectation this server does not meet: {expect}', []),
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof ERRORS;

type ContextKeys<C extends ErrorCode> = (typeof ERRORS)[C]['context'][number];
/** The context a code requires: `fail` refuses a missing or misnamed key at compile time. */
export type ContextOf<C extends ErrorCode> = C extends ErrorCode
  ? ([ContextKeys<C>] extends [never] ? undefined : Record<ContextKeys<C>, unknown>)
  : never;

export class EntiaError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly context: ContextOf<C>,
    /** Values that only the message uses (ids, language codes), not part of the context. */
    readonly params: Record<string, string | number> = {},
    /** For a code that stands for a more precise one (D7/D8's invalid-item-data): that one, for dialects that say it. */
    readonly precise?: EntiaError,
  ) {
    super(code);
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  get text(): string {
    const values: Record<string, unknown> = { ...(this.context as object | undefined), ...this.params };
    return ERRORS[this.code].message.replace(/\{(\w+)\}/g, (whole, key: string) =>
      key in values ? String(values[key]) : whole);
  }
}

/** Raises an error from the table. */
export function fail<C extends ErrorCode>(code: C, ...args: ContextOf<C> extends undefined
  ? [context?: undefined, params?: Record<string, string | number>]
  : [context: ContextOf<C>, params?: Record<string, string | number>]): never {
  throw new EntiaError(code, args[0] as ContextOf<C>, args[1] ?? {});
}

export function isEntiaError(e: unknown): e is EntiaError {
  return e instanceof EntiaError;
}
