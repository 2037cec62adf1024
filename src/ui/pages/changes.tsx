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

export function ChangesPage({ changes, next, labels }: { changes: ChangeRow[]; next: string | null; labels: Labels }) {
  return (
    <section class="changes-page">
      <h1>Recent changes</h1>
      {changes.length === 0 ? <p class="empty">Nothing has been edited yet.</p> : null}
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
      {next !== null ? <nav class="pager" aria-label="Change pages"><a href={`/recent-changes?before=${encodeURIComponent(next)}`} rel="next">Older changes</a></nav> : null}
    </section>
  );
}
