// The query page: a SPARQL editor with a few examples, its results as a table with entities linked and
// labelled, and the same results to download (docs/api.md §10.16). A plain form: no script is needed to run a
// query, and the address of a result page is the query itself, so it can be bookmarked and shared.
import { msg, useT } from '../messages.js';
import { EntityLink, type Labels } from '../values.js';
import { ENTITY_ID_PATTERN } from '../../domain/kinds.js';

export interface Binding {
  type: 'uri' | 'literal' | 'bnode' | 'triple';
  value: string;
  'xml:lang'?: string;
  datatype?: string;
}

export interface QueryView {
  query: string;
  /** A SELECT's variables and rows, or an ASK's answer; none before a query runs. */
  result?: { vars: string[]; rows: Record<string, Binding>[]; truncated: boolean } | { boolean: boolean };
  /** Why the query did not run (the API's message). */
  error?: string;
}

export const QUERY_EXAMPLES: { title: string; query: string }[] = [
  { title: msg('Instances of a class, labelled'), query: `SELECT ?item ?itemLabel ?itemDescription WHERE {
  ?item wdt:P31 wd:Q5 .
  SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],en". }
}
LIMIT 100` },
  { title: msg('Items by how many statements they have'), query: `SELECT ?item ?itemLabel (COUNT(?statement) AS ?statements) WHERE {
  ?item a wikibase:Item ; ?p ?statement .
  ?statement a wikibase:Statement .
  SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],en". }
}
GROUP BY ?item ?itemLabel
ORDER BY DESC(?statements)
LIMIT 50` },
  { title: msg('Properties and their data types'), query: `SELECT ?property ?propertyLabel ?type WHERE {
  ?property wikibase:propertyType ?type .
  SERVICE wikibase:label { bd:serviceParam wikibase:language "[AUTO_LANGUAGE],en". }
}
ORDER BY ?propertyLabel` },
  { title: msg('Statements with a qualifier, and its value'), query: `SELECT ?item ?statement ?qualifier ?value WHERE {
  ?item ?p ?statement .
  ?statement a wikibase:Statement ; ?pq ?value .
  ?qualifier wikibase:qualifier ?pq .
}
LIMIT 100` },
];

const CONCEPT_URI = new RegExp(`/entity/(${ENTITY_ID_PATTERN})$`);

/** The entity id an IRI names, when it is a concept URI (`…/entity/Q42`). */
export function entityOf(binding: Binding): string | null {
  return binding.type === 'uri' ? CONCEPT_URI.exec(binding.value)?.[1] ?? null : null;
}

function Cell({ binding, labels }: { binding: Binding | undefined; labels: Labels }) {
  if (!binding) return <td />;
  const id = entityOf(binding);
  if (id) return <td><EntityLink id={id} labels={labels} /></td>;
  if (binding.type === 'uri') return <td><a href={binding.value} rel="nofollow">{binding.value}</a></td>;
  return <td lang={binding['xml:lang']}>{binding.value}</td>;
}

export function QueryPage({ view, labels }: { view: QueryView; labels: Labels }) {
  const t = useT();
  const download = (format: string) => `/sparql?${new URLSearchParams({ query: view.query, format })}`;
  const { result } = view;
  return (
    <section class="query-page">
      <h1>{t('Query')}</h1>
      <p>{t('SPARQL over every item and property, as on the Wikidata Query Service: its prefixes are declared and its label service fills ?xLabel and ?xDescription.')}{' '}
        <a href="/docs">{t('API reference')}</a></p>
      <form action="/query" method="get" class="query-form">
        <label for="query-text">{t('Query')}</label>
        <textarea id="query-text" name="query" rows={12} spellcheck={false} maxLength={100_000}>{view.query}</textarea>
        <button type="submit">{t('Run')}</button>
      </form>
      <details class="query-examples" open={!result && !view.error}>
        <summary>{t('Examples')}</summary>
        <ul>{QUERY_EXAMPLES.map((e) => <li><a href={`/query?${new URLSearchParams({ query: e.query })}`}>{t(e.title)}</a></li>)}</ul>
      </details>
      {view.error ? <p class="query-error" role="alert">{view.error}</p> : null}
      {result && 'boolean' in result ? <p class="query-answer">{result.boolean ? t('Yes') : t('No')}</p> : null}
      {result && 'rows' in result ? (
        <>
          <p class="query-summary">
            {result.rows.length === 0 ? t('No results.')
              : result.rows.length === 1 && !result.truncated ? t('1 result') : t('{0} results', `${result.rows.length}${result.truncated ? '+' : ''}`)}
            {' · '}{t('Download:')} <a href={download('csv')}>CSV</a> · <a href={download('json')}>JSON</a> · <a href={download('tsv')}>TSV</a>
          </p>
          {result.truncated ? <p>{t('The first {0} are shown; the downloads have them all.', result.rows.length)}</p> : null}
          <table class="query-results">
            <thead><tr>{result.vars.map((v) => <th scope="col">{v}</th>)}</tr></thead>
            <tbody>{result.rows.map((row) => <tr>{result.vars.map((v) => <Cell binding={row[v]} labels={labels} />)}</tr>)}</tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
