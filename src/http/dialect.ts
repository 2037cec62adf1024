// Upstream Wikibase's spelling of the REST API (docs/api.md §1.1), served under ENTIA_WIKIBASE_PREFIX
// (`/w/rest.php/wikibase/v1/…`, the base path Wikibase clients are configured with). It is a rendering at the
// edge: the same routes and handlers, with the differences below applied to what they answer.
import type { Result } from './route.js';
import { jsonBuffer } from './reply-error.js';

/**
 * A statement's property reference carries its data type as `data-type` in the contract and as `data_type` in
 * upstream's API, which every Wikibase REST client reads. In JSON as JSON.stringify writes it, `"data-type":` can
 * only be that key (inside a string the quotes would be escaped), so the bytes are rewritten without parsing.
 */
function wikibaseBody(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8');
  return text.includes('"data-type":') ? Buffer.from(text.replaceAll('"data-type":', '"data_type":'), 'utf8') : bytes;
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

/** A handler's result as upstream Wikibase would answer it. */
export function wikibaseResult(result: Result, publicUrl: string, prefix: string): Result {
  const body = result.body === undefined ? undefined
    : wikibaseBody(Buffer.isBuffer(result.body) ? result.body : jsonBuffer(result.body));
  return { ...result, body, headers: wikibaseHeaders(result.headers, publicUrl, prefix) };
}
