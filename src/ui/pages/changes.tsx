// Recent changes across the knowledge base, newest first (the change feed read backwards).
import { EntityLink, type Labels } from '../values.js';

export interface ChangeRow {
  cursor: string;
  entity: string;
  type: 'create' | 'edit' | 'revert' | 'redirect';
  revision: number;
  timestamp: string;
  user: string;
  comment: string | null;
}

/** What the list is narrowed to: a kind (`item`, `property`, or '' for both), a user, bots left out. */
export interface ChangeFilters {
  types: string;
  user: string;
  hidebots: boolean;
}

export function ChangesPage({ changes, next, labels, filters }: { changes: ChangeRow[]; next: string | null; labels: Labels; filters: ChangeFilters }) {
  const filtered = filters.types !== '' || filters.user !== '' || filters.hidebots;
  const more = new URLSearchParams({ ...(filters.types ? { types: filters.types } : {}), ...(filters.user ? { user: filters.user } : {}),
    ...(filters.hidebots ? { hidebots: '1' } : {}) });
  return (
    <section class="changes-page">
      <h1>Recent changes</h1>
      <form class="change-filters row" method="get" action="/recent-changes" aria-label="Filter the changes">
        <label><span>Kind</span>
          <select name="types">
            <option value="" selected={filters.types === ''}>Items and properties</option>
            <option value="item" selected={filters.types === 'item'}>Items</option>
            <option value="property" selected={filters.types === 'property'}>Properties</option>
          </select>
        </label>
        <label><span>User</span><input type="text" name="user" value={filters.user} maxLength={255} /></label>
        <label class="check"><input type="checkbox" name="hidebots" value="1" checked={filters.hidebots} /><span>Hide bot edits</span></label>
        <button type="submit">Show</button>
      </form>
      {changes.length === 0 ? <p class="empty">{filtered ? 'No change matches these filters.' : 'Nothing has been edited yet.'}</p> : null}
      <table class="changes">
        <caption class="visually-hidden">Changes, newest first</caption>
        <thead><tr><th scope="col">Time (UTC)</th><th scope="col">Entity</th><th scope="col">Change</th><th scope="col">User</th><th scope="col">Summary</th></tr></thead>
        <tbody>
          {changes.map((c) => (
            <tr>
              <td><time datetime={c.timestamp}>{c.timestamp.replace('T', ' ').replace('Z', '')}</time></td>
              <td><EntityLink id={c.entity} labels={labels} /></td>
              <td><a href={`/${c.entity}/revisions/${c.revision}`}>{c.type}</a> · <a href={`/${c.entity}/history`}>history</a></td>
              <td>{c.user}</td>
              <td>{c.comment ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {next !== null ? <nav class="pager" aria-label="Change pages"><a href={`/recent-changes?${new URLSearchParams([...more, ['before', next]])}`} rel="next">Older changes</a></nav> : null}
    </section>
  );
}
