// Upstream Wikibase's spelling of the REST API (docs/api.md §1.1), served under ENTIA_WIKIBASE_PREFIX
// (`/w/rest.php/wikibase/v1/…`, the base path Wikibase clients are configured with). It is a rendering at the
// edge: the same routes and handlers, with the differences below applied to what they answer.

/**
 * A statement's property reference carries its data type as `data-type` in the contract and as `data_type` in
 * upstream's API, which every Wikibase REST client reads. In JSON as JSON.stringify writes it, `"data-type":` can
 * only be that key (inside a string the quotes would be escaped), so the bytes are rewritten without parsing.
 */
export function wikibaseBody(bytes: Buffer): Buffer {
  const text = bytes.toString('utf8');
  return text.includes('"data-type":') ? Buffer.from(text.replaceAll('"data-type":', '"data_type":'), 'utf8') : bytes;
}

/** A Location under the contract's paths (`…/v1/…`) points under the prefix, where the client is. */
export function wikibaseLocation(location: string, publicUrl: string, prefix: string): string {
  return location.startsWith(`${publicUrl}/v1/`) ? `${publicUrl}${prefix}${location.slice(publicUrl.length)}` : location;
}
