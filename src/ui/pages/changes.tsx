// Recent changes across the knowledge base, newest first (the change feed read backwards).
import { useT, type Translate } from '../messages.js';
import { EntityLink, type Labels } from '../values.js';
import { KINDS } from '../../domain/kinds.js';

export interface ChangeRow {
  cursor: string;
  entity: string;
  type: 'create' | 'edit' | 'revert' | 'redirect';
  revision: number;
  timestamp: string;
  user: string;
  comment: string | null;
}

/** How a change's type reads (the feed's `create`, `edit`, `revert`, `redirect`). */
export function changeTypeText(t: Translate, type: ChangeRow['type']): string {
  switch (type) {
    case 'create': return t('create');
    case 'edit': return t('edit');
    case 'revert': return t('revert');
    case 'redirect': return t('redirect');
  }
}

/** What the list is narrowed to: a kind (`item`, `property`, or '' for both), a user, bots left out. */
export interface ChangeFilters {
  types: string;
  user: string;
  hidebots: boolean;
}

export function ChangesPage({ changes, next, labels, filters }: { changes: ChangeRow[]; next: string | null; labels: Labels; filters: ChangeFilters }) {
  const t = useT();
  const filtered = filters.types !== '' || filters.user !== '' || filters.hidebots;
  const more = new URLSearchParams({ ...(filters.types ? { types: filters.types } : {}), ...(filters.user ? { user: filters.user } : {}),
    ...(filters.hidebots ? { hidebots: '1' } : {}) });
  return (
    <section class="changes-page">
      <h1>{t('Recent changes')}</h1>
      <form class="change-filters row" method="get" action="/recent-changes" aria-label={t('Filter the changes')}>
        <label><span>{t('Kind')}</span>
          <select name="types">
            <option value="" selected={filters.types === ''}>{t('Items and properties')}</option>
            {KINDS.map((k) => <option value={k.name} selected={filters.types === k.name}>{t(k.words.plural)}</option>)}
          </select>
        </label>
        <label><span>{t('User')}</span><input type="text" name="user" value={filters.user} maxLength={255} /></label>
        <label class="check"><input type="checkbox" name="hidebots" value="1" checked={filters.hidebots} /><span>{t('Hide bot edits')}</span></label>
        <button type="submit">{t('Show')}</button>
      </form>
      {changes.length === 0 ? <p class="empty">{filtered ? t('No change matches these filters.') : t('Nothing has been edited yet.')}</p> : null}
      <table class="changes">
        <caption class="visually-hidden">{t('Changes, newest first')}</caption>
        <thead><tr><th scope="col">{t('Time (UTC)')}</th><th scope="col">{t('Entity')}</th><th scope="col">{t('Change')}</th><th scope="col">{t('User')}</th><th scope="col">{t('Summary')}</th></tr></thead>
        <tbody>
          {changes.map((c) => (
            <tr>
              <td><time datetime={c.timestamp}>{c.timestamp.replace('T', ' ').replace('Z', '')}</time></td>
              <td><EntityLink id={c.entity} labels={labels} /></td>
              <td><a href={`/${c.entity}/revisions/${c.revision}`}>{changeTypeText(t, c.type)}</a> · <a href={`/${c.entity}/history`}>{t('history')}</a></td>
              <td>{c.user}</td>
              <td>{c.comment ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next !== null ? <nav class="pager" aria-label={t('Change pages')}><a href={`/recent-changes?${new URLSearchParams([...more, ['before', next]])}`} rel="next">{t('Older changes')}</a></nav> : null}
    </section>
  );
}
