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
}

/** Every entity id a statement names: its property and value, its qualifiers' and references'. */
export function idsInStatement(statement: Statement): string[] {
  const ids: string[] = [];
  const snak = (s: Snak) => ids.push(s.property.id, ...idsInValue(s.value));
  snak(statement);
  statement.qualifiers.forEach(snak);
  for (const ref of statement.references) ref.parts.forEach(snak);
  return ids;
}

/** Every entity id the page names, for one batch of labels. */
export function idsOnPage(entity: Entity): string[] {
  const ids: string[] = [];
  for (const [property, statements] of Object.entries(entity.statements)) {
    ids.push(property);
    for (const st of statements) ids.push(...idsInStatement(st));
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
      <Terms entity={entity} language={labels.language} />
      <Statements entity={entity} labels={labels} />
      {kind.hasSitelinks ? <Sitelinks sitelinks={entity.sitelinks ?? {}} labels={labels} /> : null}
    </article>
  );
}

function Terms({ entity, language }: { entity: Entity; language: string }) {
  const t = useT();
  const all = [...new Set([...Object.keys(entity.labels), ...Object.keys(entity.descriptions), ...Object.keys(entity.aliases)])];
  const near = fallbackChain(language, 'labels').filter((code) => code === language || all.includes(code));
  const others = all.filter((code) => !near.includes(code)).sort();
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
  const table = (codes: string[], caption: string) => (
    <table class="terms">
      <caption class="visually-hidden">{caption}</caption>
      <thead><tr><th scope="col">{t('Language')}</th><th scope="col">{t('Label')}</th><th scope="col">{t('Description')}</th><th scope="col">{t('Also known as')}</th><th scope="col"><span class="visually-hidden">{t('Actions')}</span></th></tr></thead>
      <tbody>{codes.map(row)}</tbody>
    </table>
  );
  return (
    <section class="terms-section" aria-labelledby="terms-heading">
      <h2 id="terms-heading">{t('Labels, descriptions and aliases')}</h2>
      {table(near, t('In your languages'))}
      {others.length ? (
        <details class="all-languages">
          <summary>{t('All entered languages ({0})', all.length)}</summary>
          {table(others, t('In other languages'))}
        </details>
      ) : null}
    </section>
  );
}

function Statements({ entity, labels }: { entity: Entity; labels: Labels }) {
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
            <ol class="statements">{statements.map((st) => <StatementView statement={st} labels={labels} />)}</ol>
          </div>
        </section>
      ))}
    </section>
  );
}

const RANK_TEXT = { preferred: msg('Preferred rank'), normal: msg('Normal rank'), deprecated: msg('Deprecated rank') } as const;

export function StatementView({ statement, labels }: { statement: Statement; labels: Labels }) {
  // Not useT(): a hook in each of Q31's hundreds of statements cost its page 30 ms (bench:ui).
  const t = translator(labels.language);
  return (
    <li class={`statement rank-${statement.rank}`} data-statement-id={statement.id}
      data-datatype={statement.property['data-type'] ?? ''} data-rank={statement.rank}>
      <div class="statement-main">
        <span class={`rank rank-${statement.rank}`} title={t(RANK_TEXT[statement.rank])}>
          <span class="visually-hidden">{t(RANK_TEXT[statement.rank])}</span>
        </span>
        <span class="statement-value"><ValueView snak={statement} labels={labels} /></span>
        <span class="actions" />
      </div>
      {statement.qualifiers.length ? <SnakList snaks={statement.qualifiers} labels={labels} className="qualifiers" /> : null}
      {statement.references.length ? <References references={statement.references} labels={labels} /> : null}
    </li>
  );
}

function SnakList({ snaks, labels, className }: { snaks: Snak[]; labels: Labels; className: string }) {
  return (
    <dl class={className}>
      {snaks.map((snak) => (
        <div class="snak">
          <dt><EntityLink id={snak.property.id} labels={labels} /></dt>
          <dd><ValueView snak={snak} labels={labels} /></dd>
        </div>
      ))}
    </dl>
  );
}

function References({ references, labels }: { references: Reference[]; labels: Labels }) {
  const t = translator(labels.language);
  return (
    <details class="references">
      <summary>{references.length === 1 ? t('1 reference') : t('{0} references', references.length)}</summary>
      <ol>{references.map((ref) => <li><SnakList snaks={ref.parts} labels={labels} className="reference" /></li>)}</ol>
    </details>
  );
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
