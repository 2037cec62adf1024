// Creating an item or a property (Wikibase's Special:NewItem and Special:NewProperty): terms in the editor's
// language, a property's data type; assets/create.js sends it to the API (POST /v1/entities/…) with the editor's
// token and opens the new entity's page.
import type { KindName } from '../../domain/entity.js';
import { useT } from '../messages.js';
import { ApiFormEnd } from './api-form.js';
import { kindByName } from '../../domain/kinds.js';

export function CreatePage({ kind, language, dataTypes }: { kind: KindName; language: string; dataTypes: string[] }) {
  const t = useT();
  const of = kindByName(kind);
  return (
    <section class="create-page">
      <h1>{t(of.words.create)}</h1>
      <form class="create-entity editor" data-kind={kind} aria-label={t(of.words.newOne)}>
        <label><span>{t('Language')}</span><input name="language" type="text" value={language} required maxLength={20} /></label>
        <label><span>{t('Label')}</span><input name="label" type="text" maxLength={250} /></label>
        <label><span>{t('Description')}</span><input name="description" type="text" maxLength={250} /></label>
        <label><span>{t('Aliases (one per line)')}</span><textarea name="aliases" rows={3} /></label>
        {of.hasDataType ? (
          <label><span>{t('Data type')}</span>
            <select name="data_type" required>{dataTypes.map((type) => <option value={type} selected={type === 'wikibase-item'}>{type}</option>)}</select>
          </label>
        ) : null}
        <ApiFormEnd submit={t('Create')} />
      </form>
    </section>
  );
}
