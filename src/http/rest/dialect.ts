// Upstream Wikibase's spelling of the REST API (docs/api.md §1.1), served under ENTIA_WIKIBASE_PREFIX
// (`/w/rest.php/wikibase/v1/…`, the base path Wikibase clients are configured with). It is a rendering at the
// edge: the same routes and handlers, with the differences below applied to what they answer.
import type { EntiaError, ErrorCode } from '../../domain/errors.js';
import { JsonStream } from '../compression.js';
import type { Result } from '../context.js';
import { errorBody, jsonBuffer } from '../reply-error.js';
import { ITEM, KINDS, parseEntityId } from '../../domain/kinds.js';

/** D5: a malformed id or code in the path is upstream's `invalid-path-parameter`, naming the parameter. */
const PATH_PARAMETERS: Partial<Record<ErrorCode, string>> = {
  ...Object.fromEntries(KINDS.map((k) => [k.codes.invalidId, k.pathParameter])), 'invalid-statement-id': 'statement_id',
  'invalid-language-code': 'language_code', 'invalid-site-id': 'site_id',
};

/** D5: a missing resource is upstream's `resource-not-found`, naming its type. */
const RESOURCE_TYPES: Partial<Record<ErrorCode, string>> = {
  ...Object.fromEntries(KINDS.map((k) => [k.codes.notFound, k.name])), 'statement-not-found': 'statement',
  'label-not-defined': 'label', 'description-not-defined': 'description', 'aliases-not-defined': 'aliases',
  'sitelink-not-defined': 'sitelink', 'revision-not-found': 'revision',
};

/** An error as upstream Wikibase answers it: D5, D6, D7/D8 (the precise error) and D10 applied. */
export function wikibaseError(error: EntiaError): { status: number; body: Record<string, unknown> } {
  if (error.precise) return wikibaseError(error.precise);
  const { code, params } = error;
  const parameter = PATH_PARAMETERS[code];
  if (parameter) return { status: 400, body: { code: 'invalid-path-parameter', message: `Invalid path parameter: '${parameter}'`, context: { parameter } } };
  if (code === 'statement-not-found' && params.subject !== undefined) {
    const subject = String(params.subject);
    const kind = parseEntityId(subject)?.kind ?? ITEM;
    return { status: 400, body: { code: `${kind.name}-statement-id-mismatch`, message: `IDs of the ${kind.noun} and the Statement do not match`,
      context: { [kind.pathParameter]: subject, statement_id: String(params.id) } } };
  }
  const resource = RESOURCE_TYPES[code];
  if (resource) return { status: 404, body: { code: 'resource-not-found', message: 'The requested resource does not exist', context: { resource_type: resource } } };
  const body = errorBody(error);
  if (code === 'unexpected-error') body.message = 'Unexpected error';
  return { status: error.status, body };
}

/**
 * A statement's property reference carries its data type as `data-type` in the contract and as `data_type` in
 * upstream's API, which every Wikibase REST client reads. In JSON as JSON.stringify writes it, `"data-type":` can
 * only be that key (inside a string the quotes would be escaped), so the bytes are rewritten without parsing.
 */
function wikibaseBody(bytes: Buffer, dataType?: () => string | undefined): Buffer {
  const original = bytes.toString('utf8');
  let text = original;
  // D2: a whole property shows its data type right after its type, where upstream puts it.
  const type = dataType?.();
  if (type !== undefined && !text.includes('"data_type":')) {
    text = text.replace('"type":"property",', `"type":"property","data_type":${JSON.stringify(type)},`);
  }
  if (text.includes('"data-type":')) text = text.replaceAll('"data-type":', '"data_type":');
  return text === original ? bytes : Buffer.from(text, 'utf8');
}

/** A Location under the contract's paths (`…/v1/…`) points under the prefix, where the client is. */
function wikibaseLocation(location: string, publicUrl: string, prefix: string): string {
  return location.startsWith(`${publicUrl}/v1/`) ? `${publicUrl}${prefix}${location.slice(publicUrl.length)}` : location;
}

/** Headers of a result or an empty reply (308, 304), with a Location moved under the prefix. */
export function wikibaseHeaders<H extends Record<string, string> | undefined>(headers: H, publicUrl: string, prefix: string): H {
  if (!headers?.location) return headers;
  return { ...headers, location: wikibaseLocation(headers.location, publicUrl, prefix) };
}

/** A handler's result as upstream Wikibase would answer it; a PUT that created its resource is a 201 (D11). */
export function wikibaseResult(result: Result, publicUrl: string, prefix: string): Result {
  const body = result.body === undefined ? undefined
    : result.body instanceof JsonStream ? result.body.map((piece) => wikibaseBody(piece))
      : wikibaseBody(Buffer.isBuffer(result.body) ? result.body : jsonBuffer(result.body), result.dataType);
  const status = result.created && (result.status ?? 200) === 200 ? 201 : result.status;
  return { ...result, status, body, headers: wikibaseHeaders(result.headers, publicUrl, prefix) };
}
