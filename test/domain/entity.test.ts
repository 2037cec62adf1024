// The entity model's helpers that stores and edits share (src/domain/entity.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entityJson, freezeJson, type Entity } from '../../src/domain/entity.js';

describe('freezeJson', () => {
  it('freezes every object and array of a document, however deep', () => {
    const doc = JSON.parse('{"a":{"b":[1,{"c":[{"d":"e"}]}],"s":"text"},"n":null,"list":[[[]]]}');
    freezeJson(doc);
    const unfrozen: string[] = [];
    const visit = (value: unknown, path: string) => {
      if (typeof value !== 'object' || value === null) return;
      if (!Object.isFrozen(value)) unfrozen.push(path);
      for (const [k, v] of Object.entries(value)) visit(v, `${path}/${k}`);
    };
    visit(doc, '');
    assert.deepEqual(unfrozen, []);
  });

  it('leaves a frozen part as it is and freezes the new parts around it', () => {
    const shared = freezeJson({ en: 'one' });
    const next = { labels: shared, aliases: { en: ['x'] } };
    assert.equal(freezeJson(next), next);
    assert.ok(Object.isFrozen(next.aliases.en));
  });

  it('serialises a frozen entity once and the same way as JSON.stringify', () => {
    const entity = freezeJson<Entity>({ id: 'Q1', type: 'item', labels: { en: 'a' }, descriptions: {}, aliases: {}, statements: {}, sitelinks: {} });
    assert.equal(entityJson(entity), JSON.stringify(entity));
    assert.equal(entityJson(entity), entityJson(entity));
  });
});
