// The front page: what this is, how much it holds, a search box, the latest changes and where to go next.
import { changeTypeText, type ChangeRow } from './changes.js';
import { msg, plural, useT } from '../messages.js';
import { EntityLink, type Labels } from '../values.js';

export interface HomeView {
  /** What the store holds (GET /v1/statistics); null when it could not be counted. */
  counts: { entities: Record<string, number>; redirects: Record<string, number> } | null;
  /** The latest changes, newest first. */
  latest: ChangeRow[];
}

export function HomePage({ view, labels }: { view: HomeView; labels: Labels }) {
  const t = useT();
  const { counts, latest } = view;
  const count = (n: number, one: string, many: string) => plural(t, labels.language, n, one, many);
  return (
    <section class="home">
      <h1>Entia</h1>
      <p>{t('A knowledge base of items and properties: labels, descriptions and aliases in many languages, statements with qualifiers and references, and links to pages on other sites.')}</p>
      {counts ? (
        <p class="home-counts">
          {t('It holds')} <strong>{count(counts.entities.item ?? 0, msg('{0} item'), msg('{0} items'))}</strong> {t('and')}{' '}
          <strong>{count(counts.entities.property ?? 0, msg('{0} property'), msg('{0} properties'))}</strong>
          {(counts.redirects.item ?? 0) > 0 ? <>, {t('and')} {count(counts.redirects.item, msg('{0} redirect from merged items'), msg('{0} redirects from merged items'))}</> : null}.
        </p>
      ) : null}
      <form action="/search" method="get" class="home-search" role="search">
        <label for="home-q">{t('Find an item or property by name, alias or id')}</label>
        <input id="home-q" name="q" type="search" maxLength={300} autocomplete="off" data-suggest="items" />
        <button type="submit">{t('Search')}</button>
      </form>
      {latest.length ? (
        <section class="home-latest" aria-labelledby="latest-heading">
          <h2 id="latest-heading">{t('Latest changes')}</h2>
          <ol class="latest-changes">
            {latest.map((c) => (
              <li>
                <EntityLink id={c.entity} labels={labels} /> <span class="change-type">{changeTypeText(t, c.type)}</span>
                {' '}{t('by {0}', c.user)}, <time datetime={c.timestamp}>{c.timestamp.replace('T', ' ').replace('Z', '')}</time>
                {c.comment ? <span class="change-comment">: {c.comment}</span> : null}
              </li>
            ))}
          </ol>
          <p><a href="/recent-changes">{t('All recent changes')}</a></p>
        </section>
      ) : null}
      <ul class="home-links">
        <li><a href="/recent-changes">{t('Recent changes')}</a>: {t('what was edited lately.')}</li>
        <li><a href="/items">{t('All items')}</a> {t('and')} <a href="/properties">{t('all properties')}</a>:{' '}
          {t('tables to filter by a statement and download as CSV or JSON.')}</li>
        <li><a href="/query">{t('Query')}</a>: {t('SPARQL over everything, as on the Wikidata Query Service.')}</li>
        <li><a href="/docs">{t('API reference')}</a>: {t('every route, tried from this page.')}</li>
        <li><a href="/Special:NewItem">{t('Create a new item')}</a> {t('or')} <a href="/Special:NewProperty">{t('a new property')}</a>;{' '}
          <a href="/Special:MergeItems">{t('merge two items')}</a>.</li>
      </ul>
    </section>
  );
}

export function ErrorPage({ status, message }: { status: number; message: string }) {
  const t = useT();
  return (
    <section class="error-page">
      <h1>{status === 404 ? t('Not found') : t('Something went wrong')}</h1>
      <p>{message}</p>
      <p><a href="/">{t('Back to the front page')}</a></p>
    </section>
  );
}
