// Search results: the API's search of items or properties, or its suggest when no whole word matched (people
// type the start of a name, as in the header's suggestions).
import { useT } from '../messages.js';
import { ITEM, KINDS, kindBySegment, type Kind } from '../../domain/kinds.js';

export interface Hit {
  id: string;
  'display-label': { language: string; value: string } | null;
  description: { language: string; value: string } | null;
}

export interface SearchView {
  q: string;
  kind: Kind['segment'];
  hits: Hit[];
  offset: number;
  pageSize: number;
  /** Whether the hits came from suggest (the start of a term) rather than whole words. */
  bySuggest: boolean;
}

export function SearchPage({ view }: { view: SearchView }) {
  const t = useT();
  const { q, kind, hits, offset, pageSize } = view;
  const link = (params: Record<string, string | number>) => `/search?${new URLSearchParams({ q, kind, ...params } as Record<string, string>)}`;
  const of = kindBySegment(kind) ?? ITEM;
  return (
    <section class="search-page">
      <h1>{t('Search')}</h1>
      <nav class="search-kinds" aria-label={t('Search in')}>
        {t('Search in:')}{' '}
        {KINDS.map((k, i) => [i > 0 ? ' · ' : null, k.segment === kind
          ? <strong aria-current="page">{t(k.words.plural)}</strong>
          : <a href={link({ kind: k.segment })}>{t(k.words.plural)}</a>])}
      </nav>
      {q === '' ? <p>{t('Type a name, an alias or an id.')}</p>
        : hits.length === 0 ? <p class="empty">{t(of.words.noMatch, q)}</p>
        : <p>{view.bySuggest ? t('Terms starting with “{0}”:', q) : t('Results for “{0}”:', q)}</p>}
      <ol class="search-results" start={offset + 1}>
        {hits.map((hit) => (
          <li>
            <a href={`/${hit.id}`} lang={hit['display-label']?.language}>{hit['display-label']?.value ?? hit.id}</a>{' '}
            <span class="id">({hit.id})</span>
            {hit.description ? <p class="hit-description" lang={hit.description.language}>{hit.description.value}</p> : null}
          </li>
        ))}
      </ol>
      <nav class="pager" aria-label={t('Result pages')}>
        {offset > 0 ? <a href={link({ offset: Math.max(0, offset - pageSize) })} rel="prev">{t('Previous')}</a> : null}
        {hits.length === pageSize ? <a href={link({ offset: offset + pageSize })} rel="next">{t('Next')}</a> : null}
      </nav>
    </section>
  );
}
