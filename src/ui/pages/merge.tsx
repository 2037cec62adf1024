// Merging two items (Wikibase's Special:MergeItems, `?fromid=Q1&toid=Q2` as there): the item merged away, the item
// it goes into, and which conflicts to leave on the first; assets/merge.js sends it to the API
// (POST /v1/entities/items/{from}/merge) with the editor's token and opens the merged item.
import { useT } from '../messages.js';
import { ApiFormEnd } from './api-form.js';

export function MergePage({ from, to }: { from: string; to: string }) {
  const t = useT();
  return (
    <section class="merge-page">
      <h1>{t('Merge two items')}</h1>
      <p>{t("Everything of the first item moves into the second by Wikibase's rules: labels, descriptions, aliases, statements and sitelinks; a label the second already has in a language becomes an alias. The first item then redirects to the second. Descriptions or sitelinks that differ stop the merge, unless you choose to leave them on the first item.")}</p>
      <form class="merge-items editor" aria-label={t('Merge two items')}>
        <label><span>{t('Item to merge away')}</span><input name="fromid" type="text" value={from} required maxLength={20} placeholder="Q42" autocomplete="off" /></label>
        <label><span>{t('Item to merge into')}</span><input name="toid" type="text" value={to} required maxLength={20} placeholder="Q42" autocomplete="off" /></label>
        <label class="check"><input type="checkbox" name="ignore" value="description" /><span>{t('Leave differing descriptions on the first item instead of stopping')}</span></label>
        <label class="check"><input type="checkbox" name="ignore" value="sitelink" /><span>{t('Leave differing sitelinks on the first item instead of stopping')}</span></label>
        <label class="check"><input type="checkbox" name="ignore" value="statement" /><span>{t('Merge even if one item links to the other')}</span></label>
        <ApiFormEnd submit={t('Merge')} />
      </form>
    </section>
  );
}
