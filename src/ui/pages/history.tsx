// An entity's revisions, newest first, each linking to the entity as it was and to what it changed (the diff with
// the revision before, with the change in size); every one but the first can be undone, every older one
// reverted to.
import { interfaceLanguage, useT } from '../messages.js';
import { sizeChange } from '../values.js';
import type { Kind } from '../../domain/kinds.js';

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
  kind: Kind['segment'];
  revisions: Revision[];
  /** The entity's latest revision. */
  latest: number;
  next: number | null;
  /** The revision just before the page's last one, when there is one (the next page's first). */
  before?: Revision;
}


export function HistoryPage({ view, language }: { view: HistoryView; language: string }) {
  const t = useT();
  return (
    <section class="history-page" data-entity={view.id} data-kind={view.kind} data-revision={view.latest}>
      <h1>{t('History of')} <a href={`/${view.id}`}>{view.label ?? view.id}</a> <span class="entity-id">({view.id})</span></h1>
      <table class="revisions">
        <caption class="visually-hidden">{t('Revisions, newest first')}</caption>
        <thead><tr><th scope="col">{t('Revision')}</th><th scope="col">{t('Time (UTC)')}</th><th scope="col">{t('User')}</th><th scope="col">{t('Summary')}</th><th scope="col">{t('Size')}</th><th scope="col">{t('Change')}</th><th scope="col"><span class="visually-hidden">{t('Actions')}</span></th></tr></thead>
        <tbody>
          {view.revisions.map((r, i) => {
            // The revision before this one: the next row, or (last on the page) the first of the next page.
            const previous = view.revisions[i + 1] ?? view.before;
            return (
            <tr data-revision={r.id}>
              <th scope="row"><a href={`/${view.id}/revisions/${r.id}`}>{r.id}</a>{r.id === view.latest ? ` (${t('current')})` : ''}</th>
              <td data-label={t('Time (UTC)')}><time datetime={r.timestamp}>{r.timestamp.replace('T', ' ').replace('Z', '')}</time></td>
              <td data-label={t('User')}>{r.user}{r.bot ? <span class="tag"> {t('bot')}</span> : null}</td>
              <td data-label={t('Summary')}>{r.comment ?? ''}{r.tags.map((tag) => <span class="tag"> {tag}</span>)}</td>
              <td data-label={t('Size')}>{t('{0} bytes', r.size.toLocaleString(interfaceLanguage(language)))}</td>
              <td data-label={t('Change')}>{previous ? <a href={`/${view.id}/diff/${previous.id}/${r.id}`} class="diff-link"
                aria-label={t('Changes in revision {0}', r.id)}>{sizeChange(r.size - previous.size, interfaceLanguage(language))}</a> : t('created')}</td>
              <td>
                {/* Enabled by assets/edit.js once it knows the reader may edit: without it they would do nothing. */}
                {previous ? <button type="button" class="undo" data-undo={r.id} data-user={r.user}
                  aria-label={t('Undo revision {0}', r.id)} disabled>{t('Undo')}</button> : null}
                {r.id === view.latest ? null : <button type="button" class="revert" data-revert={r.id} disabled>{t('Revert to this')}</button>}
              </td>
            </tr>
            );
          })}
        </tbody>
      </table>
      {view.next !== null ? <nav class="pager" aria-label={t('History pages')}><a href={`/${view.id}/history?before=${view.next}`} rel="next">{t('Older revisions')}</a></nav> : null}
    </section>
  );
}
