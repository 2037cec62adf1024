// Creating an item or a property (Wikibase's Special:NewItem and Special:NewProperty): terms in the editor's
// language, a property's data type; assets/create.js sends it to the API (POST /v1/entities/…) with the editor's
// token and opens the new entity's page.
import type { KindName } from '../../domain/entity.js';
import { ApiFormEnd } from './api-form.js';

export function CreatePage({ kind, language, dataTypes }: { kind: KindName; language: string; dataTypes: string[] }) {
  const noun = kind === 'item' ? 'item' : 'property';
  return (
    <section class="create-page">
      <h1>Create a new {noun}</h1>
      <form class="create-entity editor" data-kind={kind} aria-label={`New ${noun}`}>
        <label><span>Language</span><input name="language" type="text" value={language} required maxLength={20} /></label>
        <label><span>Label</span><input name="label" type="text" maxLength={250} /></label>
        <label><span>Description</span><input name="description" type="text" maxLength={250} /></label>
        <label><span>Aliases (one per line)</span><textarea name="aliases" rows={3} /></label>
        {kind === 'property' ? (
          <label><span>Data type</span>
            <select name="data_type" required>{dataTypes.map((t) => <option value={t} selected={t === 'wikibase-item'}>{t}</option>)}</select>
          </label>
        ) : null}
        <ApiFormEnd submit="Create" />
      </form>
    </section>
  );
}
