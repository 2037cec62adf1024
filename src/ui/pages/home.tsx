// The front page: what this is, how much it holds, a search box, the latest changes and where to go next.
import type { ChangeRow } from './changes.js';
import { EntityLink, type Labels } from '../values.js';

export interface HomeView {
  /** What the store holds (GET /v1/statistics); null when it could not be counted. */
  counts: { entities: Record<string, number>; redirects: Record<string, number> } | null;
  /** The latest changes, newest first. */
  latest: ChangeRow[];
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function HomePage({ view, labels }: { view: HomeView; labels: Labels }) {
  const { counts, latest } = view;
  return (
    <section class="home">
      <h1>Entia</h1>
      <p>A knowledge base of items and properties: labels, descriptions and aliases in many languages, statements with
        qualifiers and references, and links to pages on other sites.</p>
      {counts ? (
        <p class="home-counts">
          It holds <strong>{plural(counts.entities.item ?? 0, 'item', 'items')}</strong> and{' '}
          <strong>{plural(counts.entities.property ?? 0, 'property', 'properties')}</strong>
          {(counts.redirects.item ?? 0) > 0 ? <>, and {plural(counts.redirects.item, 'redirect', 'redirects')} from merged items</> : null}.
        </p>
      ) : null}
      <form action="/search" method="get" class="home-search" role="search">
        <label for="home-q">Find an item or property by name, alias or id</label>
        <input id="home-q" name="q" type="search" maxLength={300} autocomplete="off" data-suggest="items" />
        <button type="submit">Search</button>
      </form>
      {latest.length ? (
        <section class="home-latest" aria-labelledby="latest-heading">
          <h2 id="latest-heading">Latest changes</h2>
          <ol class="latest-changes">
            {latest.map((c) => (
              <li>
                <EntityLink id={c.entity} labels={labels} /> <span class="change-type">{c.type}</span>
                {' '}by {c.user}, <time datetime={c.timestamp}>{c.timestamp.replace('T', ' ').replace('Z', '')}</time>
                {c.comment ? <span class="change-comment">: {c.comment}</span> : null}
              </li>
            ))}
          </ol>
          <p><a href="/recent-changes">All recent changes</a></p>
        </section>
      ) : null}
      <ul class="home-links">
        <li><a href="/recent-changes">Recent changes</a>: what was edited lately.</li>
        <li><a href="/query">Query</a>: SPARQL over everything, as on the Wikidata Query Service.</li>
        <li><a href="/docs">API reference</a>: every route, tried from this page.</li>
        <li><a href="/Special:NewItem">Create a new item</a> or <a href="/Special:NewProperty">a new property</a>;
          <a href="/Special:MergeItems">merge two items</a>.</li>
      </ul>
    </section>
  );
}

export function ErrorPage({ status, message }: { status: number; message: string }) {
  return (
    <section class="error-page">
      <h1>{status === 404 ? 'Not found' : 'Something went wrong'}</h1>
      <p>{message}</p>
      <p><a href="/">Back to the front page</a></p>
    </section>
  );
}
