// Browsing: every item or property in a table (filtered by statement values, paged, downloadable as CSV and
// JSON, as Datasette offers a table), and what links to an entity.
import { useT } from '../messages.js';
import { EntityLink, type Labels } from '../values.js';
import { KINDS, kindBySegment, type Kind } from '../../domain/kinds.js';

/** One row of a list: an entity with its label and description in the page's language or a fallback. */
export interface ListRow {
  id: string;
  label: string | null;
  description: string | null;
  /** A property's data type. */
  dataType?: string;
}

export interface ListView {
  kind: Kind['segment'];
  /** The statement filter as the visitor wrote it (`P31:Q5`), or ''. */
  statement: string;
  rows: ListRow[];
  /** The cursor this page starts after, and the next page's. */
  after: string | null;
  next: string | null;
}

/** The address of a list with its filter, optionally a cursor and a download format. */
export function listHref(view: Pick<ListView, 'kind' | 'statement'>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(view.statement ? { statement: view.statement } : {}), ...extra });
  const query = params.toString();
  return `/${view.kind}${query ? `?${query}` : ''}`;
}

export function ListPage({ view }: { view: ListView }) {
  const t = useT();
  const { kind, rows } = view;
  const of = kindBySegment(kind)!;
  const title = t(of.words.plural);
  const from: Record<string, string> = view.after ? { after: view.after } : {};
  return (
    <section class="list-page">
      <h1>{title}</h1>
      <nav class="search-kinds" aria-label={t('List')}>
        {KINDS.map((k, i) => [i > 0 ? ' · ' : null, k.segment === kind
          ? <strong aria-current="page">{t(k.words.plural)}</strong>
          : <a href={listHref({ kind: k.segment, statement: view.statement })}>{t(k.words.plural)}</a>])}
      </nav>
      <form class="list-filter row" method="get" action={`/${kind}`} aria-label={t('Filter by a statement')}>
        <label><span>{t('With a statement')}</span>
          <input type="text" name="statement" value={view.statement} placeholder="P31:Q5" maxLength={500} aria-describedby="statement-hint" />
        </label>
        <button type="submit">{t('Show')}</button>
        <span id="statement-hint" class="hint">{t('A property and a value, as P31:Q5; P625:* for any value.')}</span>
      </form>
      <p class="list-downloads">{t('Download this list from here:')} <a href={listHref(view, { ...from, format: 'csv' })}>CSV</a> ·{' '}
        <a href={listHref(view, { ...from, format: 'json' })}>JSON</a></p>
      {rows.length === 0 ? <p class="empty">{view.statement ? t('None has this statement.') : t('There are none yet.')}</p> : (
        <table class="entity-list">
          <caption class="visually-hidden">{t('{0}, in id order', title)}</caption>
          <thead><tr><th scope="col">{t('Id')}</th><th scope="col">{t('Label')}</th><th scope="col">{t('Description')}</th>
            {of.hasDataType ? <th scope="col">{t('Data type')}</th> : null}</tr></thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                <td><a href={`/${row.id}`}>{row.id}</a></td>
                <td data-label={t('Label')}>{row.label ?? ''}</td>
                <td data-label={t('Description')}>{row.description ?? ''}</td>
                {of.hasDataType ? <td data-label={t('Data type')}><code>{row.dataType ?? ''}</code></td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label={t('List pages')}>
        {view.after ? <a href={listHref(view)}>{t('First page')}</a> : null}
        {view.next ? <a href={listHref(view, { after: view.next })} rel="next">{t('Next page')}</a> : null}
      </nav>
    </section>
  );
}

export interface IncomingLink {
  id: string;
  properties: string[];
}

export interface LinksHereView {
  id: string;
  links: IncomingLink[];
  after: string | null;
  next: string | null;
}

export function LinksHerePage({ view, labels }: { view: LinksHereView; labels: Labels }) {
  const t = useT();
  const { id, links } = view;
  const base = `/Special:WhatLinksHere/${id}`;
  return (
    <section class="links-here">
      <h1>{t('What links here:')} <EntityLink id={id} labels={labels} /></h1>
      <p class="hint">{t('Items and properties with a statement whose value is {0} (preferred and normal rank), and the properties that link.', id)}{' '}
        <a href={`/query?${new URLSearchParams({ query: linksHereQuery(id) })}`}>{t('The same question as a query, qualifiers included')}</a></p>
      {links.length === 0 ? <p class="empty">{view.after ? t('No more links.') : t('No statement links here.')}</p> : (
        <ul class="incoming-links">
          {links.map((link) => (
            <li><EntityLink id={link.id} labels={labels} /> <span class="through">{t('through')}{' '}
              {link.properties.map((p, i) => [i > 0 ? ', ' : null, <EntityLink id={p} labels={labels} />])}</span></li>
          ))}
        </ul>
      )}
      <nav class="pager" aria-label={t('Link pages')}>
        {view.after ? <a href={base}>{t('First page')}</a> : null}
        {view.next ? <a href={`${base}?after=${view.next}`} rel="next">{t('Next page')}</a> : null}
      </nav>
    </section>
  );
}

/** The entities whose statements, qualifiers or references name this one, with the property: a SPARQL query. */
function linksHereQuery(id: string): string {
  return `SELECT ?entity ?entityLabel ?property ?propertyLabel WHERE {
  { ?entity ?direct wd:${id} . ?property wikibase:directClaim ?direct . }
  UNION { ?entity ?claim ?st . ?st ?qualifier wd:${id} . ?property wikibase:qualifier ?qualifier . }
  SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],en". }
}
LIMIT 500`;
}
