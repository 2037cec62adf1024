// @ts-check
// The closed parts a large entity's page leaves out (pages/entity.tsx: other languages' terms, references):
// fetched from the server the first time they are opened, then part of the page like any other. Without
// scripts each is a link to the page with every part in it.

/** @type {WeakMap<HTMLElement, Promise<boolean>>} */
const loads = new WeakMap();

/**
 * Puts `details`'s part into the page, once; true when it is there. A failed load leaves the link and may be
 * tried again.
 * @param {HTMLElement} details
 */
export function loadPart(details) {
  let load = loads.get(details);
  if (!load) {
    load = fill(details);
    loads.set(details, load);
    load.then((done) => { if (!done) loads.delete(details); });
  }
  return load;
}

/** @param {HTMLElement} details */
async function fill(details) {
  const url = details.dataset.part;
  if (!url) return true;
  const res = await fetch(url, { headers: { accept: 'text/html' } }).catch(() => null);
  if (!res?.ok) return false;
  // The server's own rendering (same origin, same escaping as the page); the page's CSP still applies.
  const template = document.createElement('template');
  template.innerHTML = await res.text();
  details.querySelector('.part-fallback')?.replaceWith(template.content);
  delete details.dataset.part;
  details.dispatchEvent(new CustomEvent('entia:part-loaded', { bubbles: true }));
  return true;
}

/** @param {HTMLElement} root */
export function enhanceParts(root) {
  for (const details of root.querySelectorAll('details[data-part]')) {
    const d = /** @type {HTMLDetailsElement} */ (details);
    d.addEventListener('toggle', () => { if (d.open) loadPart(d); });
  }
}
