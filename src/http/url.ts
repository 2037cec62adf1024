// Request paths that cannot be percent-decoded (`/v1/entities/items/%E0%A4%A`). The router would refuse the
// whole path; instead each undecodable segment is re-encoded so that it decodes to the text the client sent,
// and the route answers as for any other malformed parameter (400 invalid-item-id, invalid-language-code, …).

export function withDecodablePath(url: string): string {
  if (!url.includes('%')) return url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  try {
    decodeURIComponent(path);
    return url;
  } catch {
    const fixed = path.split('/').map((segment) => (isDecodable(segment) ? segment : segment.replace(/%/g, '%25'))).join('/');
    return q < 0 ? fixed : fixed + url.slice(q);
  }
}

function isDecodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
