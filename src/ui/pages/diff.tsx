// The difference between two revisions of an entity (/Q42/diff/{from}/{to}): each label, description, alias
// list, statement and sitelink that changed, as it was and as it became (domain/entity-diff.ts), and the change
// in size. Statements show as on the entity page, qualifiers and references included.
import type { DiffRow } from '../../domain/entity-diff.js';
import { interfaceLanguage, translator, useT } from '../messages.js';
import { EntityLink, sizeChange, type Labels } from '../values.js';
import { idsInStatement, StatementView } from './entity.js';

export interface DiffSide {
  revision: number;
  timestamp: string;
  user: string;
  comment: string | null;
  size: number;
}

export interface DiffView {
  id: string;
  label: string | null;
  from: DiffSide;
  to: DiffSide;
  rows: DiffRow[];
}

/** Every entity id the rows name, for one batch of labels. */
export function idsInDiff(rows: readonly DiffRow[]): string[] {
  const ids: string[] = [];
  for (const row of rows) {
    if (row.part === 'statement') {
      ids.push(row.property);
      for (const st of [row.before, row.after]) if (st) ids.push(...idsInStatement(st));
    } else if (row.part === 'sitelink') {
      ids.push(...(row.before?.badges ?? []), ...(row.after?.badges ?? []));
    }
  }
  return ids;
}


export function DiffPage({ view, labels }: { view: DiffView; labels: Labels }) {
  const t = useT();
  const { id, from, to } = view;
  return (
    <section class="diff-page" data-entity={id}>
      <h1>{t('Changes to')} <a href={`/${id}`}>{view.label ?? id}</a> <span class="entity-id">({id})</span></h1>
      <p class="diff-sides">
        {t('From')} <Side id={id} side={from} /> {t('to')} <Side id={id} side={to} />. {t('Size change:')}{' '}
        <strong class="size-change">{t('{0} bytes', sizeChange(to.size - from.size, interfaceLanguage(labels.language)))}</strong>.
        {' '}<a href={`/${id}/history`}>{t('History')}</a>
      </p>
      {view.rows.length === 0 ? <p class="empty">{t('The two revisions hold the same.')}</p> : (
        <table class="diff">
          <caption class="visually-hidden">{t('What changed, part by part')}</caption>
          <thead><tr><th scope="col">{t('Part')}</th><th scope="col">{t('Revision {0}', from.revision)}</th><th scope="col">{t('Revision {0}', to.revision)}</th></tr></thead>
          <tbody>{view.rows.map((row) => <Row row={row} labels={labels} />)}</tbody>
        </table>
      )}
    </section>
  );
}

function Side({ id, side }: { id: string; side: DiffSide }) {
  const t = useT();
  return (
    <span>
      <a href={`/${id}/revisions/${side.revision}`}>{t('revision {0}', side.revision)}</a>
      {' '}(<time datetime={side.timestamp}>{side.timestamp.replace('T', ' ').replace('Z', '')}</time>, {side.user}
      {side.comment ? <>: <q>{side.comment}</q></> : null})
    </span>
  );
}

function Row({ row, labels }: { row: DiffRow; labels: Labels }) {
  const t = translator(labels.language);
  const status = row.before === undefined ? 'added' : row.after === undefined ? 'removed' : 'changed';
  const statusText = status === 'added' ? t('added') : status === 'removed' ? t('removed') : t('changed');
  return (
    <tr class={`diff-${status}`} data-part={row.part}>
      <th scope="row"><PartName row={row} labels={labels} /> <span class="diff-status">{statusText}</span></th>
      <td class="diff-before">{row.before === undefined ? null : <Shown row={row} side="before" labels={labels} />}</td>
      <td class="diff-after">{row.after === undefined ? null : <Shown row={row} side="after" labels={labels} />}</td>
    </tr>
  );
}

function PartName({ row, labels }: { row: DiffRow; labels: Labels }) {
  const t = translator(labels.language);
  switch (row.part) {
    case 'label': return <>{t('Label')} <code>{row.language}</code></>;
    case 'description': return <>{t('Description')} <code>{row.language}</code></>;
    case 'aliases': return <>{t('Aliases')} <code>{row.language}</code></>;
    case 'statement': return <>{t('Statement:')} <EntityLink id={row.property} labels={labels} /></>;
    case 'sitelink': return <>{t('Sitelink')} <code>{row.site}</code></>;
  }
}

function Shown({ row, side, labels }: { row: DiffRow; side: 'before' | 'after'; labels: Labels }) {
  switch (row.part) {
    case 'label':
    case 'description': return <>{row[side]}</>;
    case 'aliases': return <ul class="aliases">{(row[side] ?? []).map((alias) => <li>{alias}</li>)}</ul>;
    case 'statement': {
      const statement = row[side]!;
      return <ol class="statements">{<StatementView statement={statement} labels={labels} />}</ol>;
    }
    case 'sitelink': {
      const link = row[side]!;
      return <>{link.title}{link.badges.map((b) => <> <EntityLink id={b} labels={labels} /></>)}</>;
    }
  }
}
