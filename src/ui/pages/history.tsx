// An entity's revisions, newest first, each linking to the entity as it was and to what it changed (the diff with
// the revision before, with the change in size); every one but the first can be undone, every older one
// reverted to.
import { sizeChange } from '../values.js';

export interface Revision {
  id: number;
  timestamp: string;
  user: string;
  comment: string | null;
  tags: string[];
  bot: boolean;
  size: number;
}

export interface HistoryView {
  id: string;
  label: string | null;
  kind: 'items' | 'properties';
  revisions: Revision[];
  /** The entity's latest revision. */
  latest: number;
  next: number | null;
  /** The revision just before the page's last one, when there is one (the next page's first). */
  before?: Revision;
}


export function HistoryPage({ view }: { view: HistoryView }) {
  return (
    <section class="history-page" data-entity={view.id} data-kind={view.kind} data-revision={view.latest}>
      <h1>History of <a href={`/${view.id}`}>{view.label ?? view.id}</a> <span class="entity-id">({view.id})</span></h1>
      <table class="revisions">
        <caption class="visually-hidden">Revisions, newest first</caption>
        <thead><tr><th scope="col">Revision</th><th scope="col">Time (UTC)</th><th scope="col">User</th><th scope="col">Summary</th><th scope="col">Size</th><th scope="col">Change</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>
          {view.revisions.map((r, i) => {
            // The revision before this one: the next row, or (last on the page) the first of the next page.
            const previous = view.revisions[i + 1] ?? view.before;
            return (
            <tr data-revision={r.id}>
              <th scope="row"><a href={`/${view.id}/revisions/${r.id}`}>{r.id}</a>{r.id === view.latest ? ' (current)' : ''}</th>
              <td data-label="Time (UTC)"><time datetime={r.timestamp}>{r.timestamp.replace('T', ' ').replace('Z', '')}</time></td>
              <td data-label="User">{r.user}{r.bot ? <span class="tag"> bot</span> : null}</td>
              <td data-label="Summary">{r.comment ?? ''}{r.tags.map((t) => <span class="tag"> {t}</span>)}</td>
              <td data-label="Size">{r.size.toLocaleString('en')} bytes</td>
              <td data-label="Change">{previous ? <a href={`/${view.id}/diff/${previous.id}/${r.id}`} class="diff-link"
                aria-label={`Changes in revision ${r.id}`}>{sizeChange(r.size - previous.size)}</a> : 'created'}</td>
              <td>
                {/* Enabled by assets/edit.js once it knows the reader may edit: without it they would do nothing. */}
                {previous ? <button type="button" class="undo" data-undo={r.id} data-user={r.user}
                  aria-label={`Undo revision ${r.id}`} disabled>Undo</button> : null}
                {r.id === view.latest ? null : <button type="button" class="revert" data-revert={r.id} disabled>Revert to this</button>}
              </td>
            </tr>
            );
          })}
        </tbody>
      </table>
      {view.next !== null ? <nav class="pager" aria-label="History pages"><a href={`/${view.id}/history?before=${view.next}`} rel="next">Older revisions</a></nav> : null}
    </section>
  );
}
