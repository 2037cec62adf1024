// An item's or property's page: its terms in the reader's language and all others, its statements grouped by
// property with qualifiers, references and ranks, and an item's sitelinks. The same page shows an old
// revision, read-only, with a button to revert to it.
import type { Entity, Reference, Snak, Statement } from '../../domain/entity.js';
import { kindByName } from '../../domain/kinds.js';
import { fallbackChain } from '../../domain/languages.js';
import { labelForTitle, languageName, termIn } from '../language.js';
import { msg, translator, useT } from '../messages.js';
import { EntityLink, idsInValue, ValueView, type Labels } from '../values.js';

export interface EntityView {
  entity: Entity & { sitelinks?: Record<string, { title: string; badges: string[]; url?: string }> };
  /** The revision shown. */
  revision: number;
  /** Set when the page shows a revision by its number: the entity's latest revision. */
  old?: { latest: number };
  dataType?: string;
  redirectedFrom?: string;
  /** Every part in the page itself (`?all=1`, old revisions): no part left for the browser to load on demand. */
  complete?: boolean;
}

/**
 * Past these sizes a closed part of the latest revision's page (the other languages' terms, a statement's
 * references) is loaded when opened instead of sent with the page: Q31's 300 languages and 1,000 reference
 * parts were half of its 12,700 elements, and building them half of its load in the browser (ADR 0019).
 */
const LAZY_LANGUAGES = 30;
const LAZY_REFERENCES = 100;

/** Where the browser loads a part of the entity's page from (index.tsx answers). */
function partUrl(id: string, part: 'terms' | 'references', language: string, statement?: string): string {
  const query = new URLSearchParams({ uselang: language, ...(statement ? { statement } : {}) });
  return `/${id}/part/${part}?${query}`;
}

/** Every entity id a statement names: its property and value, its qualifiers' and (unless left out) references'. */
export function idsInStatement(statement: Statement, withReferences = true): string[] {
  return idsInSnaks([statement, ...statement.qualifiers, ...(withReferences ? statement.references.flatMap((ref) => ref.parts) : [])]);
}

/** Every entity id some snaks name: their properties and values. */
export function idsInSnaks(snaks: readonly Snak[]): string[] {
  return snaks.flatMap((snak) => [snak.property.id, ...idsInValue(snak.value)]);
}

/** Every entity id the page names, for one batch of labels (references only where the page shows them). */
export function idsOnPage(view: EntityView): string[] {
  const ids: string[] = [];
  const { entity } = view;
  const withReferences = !lazyReferences(view);
  for (const [property, statements] of Object.entries(entity.statements)) {
    ids.push(property);
    for (const st of statements) ids.push(...idsInStatement(st, withReferences));
  }
  for (const link of Object.values(entity.sitelinks ?? {})) ids.push(...link.badges);
  return ids;
}

export function EntityPage({ view, labels }: { view: EntityView; labels: Labels }) {
  const t = useT();
  const { entity, revision, old } = view;
  const label = labelForTitle(entity.labels, labels.language);
  const description = termIn(entity.descriptions, labels.language, 'descriptions');
  const aliases = entity.aliases[labels.language] ?? [];
  const kind = kindByName(entity.type);
  const segment = kind.segment;
  return (
    <article class="entity" data-entity={entity.id} data-kind={segment} data-revision={revision}
      data-latest={old?.latest} data-editable={old ? undefined : 'true'}>
      {view.redirectedFrom ? <p class="banner">{t('Redirected from {0}.', view.redirectedFrom)}</p> : null}
      {old ? (
        <div class="banner old-revision">
          <p>{old.latest === revision ? t('This is revision {0} of {1}, its latest.', revision, entity.id) : t('This is revision {0} of {1}, not the current version.', revision, entity.id)}</p>
          {old.latest === revision ? null : <button type="button" class="revert" data-revert={revision} disabled>{t('Revert to this revision')}</button>}
        </div>
      ) : null}
      <header class="entity-header">
        <h1>
          <span class="entity-label" lang={label?.language}>{label?.text ?? entity.id}</span>{' '}
          {label?.other ? <span class="label-language" title={t('The label in another language')}>[{label.language}]</span> : null}{label?.other ? ' ' : null}
          <span class="entity-id">({entity.id})</span>
        </h1>
        <p class="entity-description" lang={description?.language}>{description?.text ?? <em>{t('No description')}</em>}</p>
        {aliases.length ? <p class="entity-aliases">{t('Also known as:')} {aliases.join(' · ')}</p> : null}
        {view.dataType ? <p class="data-type">{t('Data type:')} <code>{view.dataType}</code></p> : null}
        <p class="entity-meta">
          <a href={`/${entity.id}/history`}>{t('History')}</a> ·{' '}
          <a href={`/Special:WhatLinksHere/${entity.id}`}>{t('What links here')}</a> ·{' '}
          <a href={`/v1/entities/${segment}/${entity.id}${old ? `/revisions/${revision}` : ''}`}>JSON</a> ·{' '}
          {t('Revision {0}', revision)}
        </p>
      </header>
      <Terms entity={entity} language={labels.language} lazy={!old && !view.complete} />
      <Statements entity={entity} labels={labels} lazy={lazyReferences(view)} />
      {kind.hasSitelinks ? <Sitelinks sitelinks={entity.sitelinks ?? {}} labels={labels} /> : null}
    </article>
  );
}

function Terms({ entity, language, lazy }: { entity: Entity; language: string; lazy: boolean }) {
  const t = useT();
  const { near, others, all } = termLanguages(entity, language);
  const later = lazy && others.length > LAZY_LANGUAGES;
  return (
    <section class="terms-section" aria-labelledby="terms-heading">
      <h2 id="terms-heading">{t('Labels, descriptions and aliases')}</h2>
      <TermsTable entity={entity} language={language} codes={near} caption={t('In your languages')} />
      {others.length ? (
        <details class="all-languages" data-part={later ? partUrl(entity.id, 'terms', language) : undefined}>
          <summary>{t('All entered languages ({0})', all.length)}</summary>
          {later
            ? <PartLink id={entity.id} />
            : <TermsTable entity={entity} language={language} codes={others} caption={t('In other languages')} />}
        </details>
      ) : null}
    </section>
  );
}

/** The languages of an entity's terms: those of the reader's fallback chain, and the others by code. */
function termLanguages(entity: Entity, language: string): { near: string[]; others: string[]; all: string[] } {
  const all = [...new Set([...Object.keys(entity.labels), ...Object.keys(entity.descriptions), ...Object.keys(entity.aliases)])];
  const near = fallbackChain(language, 'labels').filter((code) => code === language || all.includes(code));
  return { near, others: all.filter((code) => !near.includes(code)).sort(), all };
}

/** The other languages' terms, as the closed part of the page loads them. */
export function OtherLanguages({ entity, language }: { entity: Entity; language: string }) {
  const t = useT();
  return <TermsTable entity={entity} language={language} codes={termLanguages(entity, language).others} caption={t('In other languages')} />;
}

/** Without scripts a part left out is one link away: the page with every part in it. */
function PartLink({ id }: { id: string }) {
  const t = useT();
  return <p class="part-fallback"><a href={`/${id}?all=1`}>{t('Show the page with every part')}</a></p>;
}

function TermsTable({ entity, language, codes, caption }: { entity: Entity; language: string; codes: string[]; caption: string }) {
  const t = useT();
  const row = (code: string) => {
    const name = languageName(code, language);
    return (
      <tr data-language={code}>
        <th scope="row"><code>{code}</code>{name ? <span class="language-name"> {name}</span> : null}</th>
        <td class="term-label" lang={code} data-label={t('Label')}>{entity.labels[code] ?? ''}</td>
        <td class="term-description" lang={code} data-label={t('Description')}>{entity.descriptions[code] ?? ''}</td>
        <td class="term-aliases" lang={code} data-label={t('Also known as')} data-aliases={JSON.stringify(entity.aliases[code] ?? [])}>{(entity.aliases[code] ?? []).join(' | ')}</td>
        <td class="actions" />
      </tr>
    );
  };
  return (
    <table class="terms">
      <caption class="visually-hidden">{caption}</caption>
      <thead><tr><th scope="col">{t('Language')}</th><th scope="col">{t('Label')}</th><th scope="col">{t('Description')}</th><th scope="col">{t('Also known as')}</th><th scope="col"><span class="visually-hidden">{t('Actions')}</span></th></tr></thead>
      <tbody>{codes.map(row)}</tbody>
    </table>
  );
}

/** Whether the page leaves its statements' references to be loaded when opened. */
function lazyReferences(view: EntityView): boolean {
  if (view.old || view.complete) return false;
  let n = 0;
  for (const statements of Object.values(view.entity.statements)) for (const st of statements) n += st.references.length;
  return n > LAZY_REFERENCES;
}

function Statements({ entity, labels, lazy }: { entity: Entity; labels: Labels; lazy: boolean }) {
  const t = useT();
  const groups = Object.entries(entity.statements);
  return (
    <section class="statements-section" aria-labelledby="statements-heading">
      <h2 id="statements-heading">{t('Statements')}</h2>
      {groups.length === 0 ? <p class="empty">{t('No statements yet.')}</p> : null}
      {groups.map(([property, statements]) => (
        <section class="statement-group" data-property={property} data-datatype={statements[0]?.property['data-type'] ?? ''}
          aria-label={labels.label(property)?.text ?? property}>
          <h3 class="statement-property"><EntityLink id={property} labels={labels} /></h3>
          <div class="group-statements">
            <ol class="statements">{statements.map((st) => <StatementView statement={st} labels={labels} lazyFrom={lazy ? entity.id : undefined} />)}</ol>
          </div>
        </section>
      ))}
    </section>
  );
}

const RANK_TEXT = { preferred: msg('Preferred rank'), normal: msg('Normal rank'), deprecated: msg('Deprecated rank') } as const;

/** `lazyFrom`: the entity whose page loads this statement's references when they are opened. */
export function StatementView({ statement, labels, lazyFrom }: { statement: Statement; labels: Labels; lazyFrom?: string }) {
  // Not useT(): a hook in each of Q31's hundreds of statements cost its page 30 ms (bench:ui).
  const t = translator(labels.language);
  return (
    <li class={`statement rank-${statement.rank}`} data-statement-id={statement.id}
      data-datatype={statement.property['data-type'] ?? ''} data-rank={statement.rank}>
      <div class="statement-main">
        {/* One element, not a span for sight and one for screen readers: there are hundreds of statements. */}
        <span class={`rank rank-${statement.rank}`} role="img" aria-label={t(RANK_TEXT[statement.rank])} title={t(RANK_TEXT[statement.rank])} />
        <span class="statement-value"><ValueView snak={statement} labels={labels} /></span>
      </div>
      {statement.qualifiers.length ? <SnakList snaks={statement.qualifiers} labels={labels} className="qualifiers" /> : null}
      {statement.references.length ? <References statement={statement} labels={labels} lazyFrom={lazyFrom} /> : null}
    </li>
  );
}

function SnakList({ snaks, labels, className }: { snaks: Snak[]; labels: Labels; className: string }) {
  return (
    <dl class={className}>
      {snaks.map((snak) => [
        <dt><EntityLink id={snak.property.id} labels={labels} /></dt>,
        <dd><ValueView snak={snak} labels={labels} /></dd>,
      ])}
    </dl>
  );
}

function References({ statement, labels, lazyFrom }: { statement: Statement; labels: Labels; lazyFrom?: string }) {
  const t = translator(labels.language);
  const { references } = statement;
  return (
    <details class="references" data-part={lazyFrom ? partUrl(lazyFrom, 'references', labels.language, statement.id) : undefined}>
      <summary>{references.length === 1 ? t('1 reference') : t('{0} references', references.length)}</summary>
      {lazyFrom ? <PartLink id={lazyFrom} /> : <ReferenceList references={references} labels={labels} />}
    </details>
  );
}

/** A statement's references, in the page or as the closed part of it loads them. */
export function ReferenceList({ references, labels }: { references: Reference[]; labels: Labels }) {
  return <ol>{references.map((ref) => <li><SnakList snaks={ref.parts} labels={labels} className="reference" /></li>)}</ol>;
}

function Sitelinks({ sitelinks, labels }: { sitelinks: Record<string, { title: string; badges: string[]; url?: string }>; labels: Labels }) {
  const t = useT();
  const sites = Object.keys(sitelinks).sort();
  return (
    <section class="sitelinks-section" aria-labelledby="sitelinks-heading">
      <h2 id="sitelinks-heading">{t('Sitelinks')}</h2>
      {sites.length === 0 ? <p class="empty">{t('No sitelinks yet.')}</p> : null}
      <table class="sitelinks">
        <caption class="visually-hidden">{t('Pages about this item on other sites')}</caption>
        <thead><tr><th scope="col">{t('Site')}</th><th scope="col">{t('Page')}</th><th scope="col">{t('Badges')}</th><th scope="col"><span class="visually-hidden">{t('Actions')}</span></th></tr></thead>
        <tbody>
          {sites.map((site) => {
            const link = sitelinks[site];
            return (
              <tr data-site={site}>
                <th scope="row"><code>{site}</code></th>
                <td data-label={t('Page')}>{link.url ? <a href={link.url} rel="noopener noreferrer" class="external">{link.title}</a> : link.title}</td>
                <td data-label={t('Badges')}>{link.badges.map((b) => <EntityLink id={b} labels={labels} />)}</td>
                <td class="actions" />
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
