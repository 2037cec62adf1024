// The interface's message catalogues: every message the pages and scripts use is translated in German and
// French, no catalogue keeps a message nothing uses, placeholders agree, and a page language reaches its
// catalogue through its fallback chain.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KINDS } from '../../src/domain/kinds.js';
import { CATALOGUES, interfaceLanguage, MESSAGE_CALL, scriptMessages, translator, unescapeLiteral } from '../../src/ui/messages.js';

const UI = new URL('../../src/ui/', import.meta.url).pathname;

function sources(dir = UI): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'messages' ? [] : sources(path);
    return /\.(ts|tsx|js)$/.test(name) ? [path] : [];
  });
}

// The messages the pages write literally, and each kind's words, which they take from the kind descriptor.
const used = new Set([...sources().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(MESSAGE_CALL)].map((m) => unescapeLiteral(m[2]))),
  ...KINDS.flatMap((kind) => Object.values(kind.words))]);
const placeholders = (text: string) => [...new Set(text.match(/\{\d\}/g) ?? [])].sort();

describe('interface messages', () => {
  it('finds the messages the code uses (the scan itself works)', () => {
    assert.ok(used.size > 250, `${used.size} messages found`);
    for (const message of ['Save', 'What links here', 'Merged {0} into {1}: {0} now redirects here.', '{0} items']) assert.ok(used.has(message), message);
  });

  for (const [code, catalogue] of Object.entries(CATALOGUES)) {
    it(`has every message in ${code}, with the same placeholders, and nothing unused`, () => {
      const missing = [...used].filter((m) => catalogue[m] === undefined);
      assert.deepEqual(missing, [], `missing in ${code}`);
      const unused = Object.keys(catalogue).filter((m) => !used.has(m));
      assert.deepEqual(unused, [], `unused in ${code}`);
      for (const [english, translated] of Object.entries(catalogue)) {
        assert.deepEqual(placeholders(translated), placeholders(english), `${code}: ${english}`);
      }
    });
  }

  it('is asked for by literal messages, or by entries of tables whose values are msg() literals', () => {
    // A message computed at run time would escape the catalogues: these are the tables that hold msg() values,
    // plural(), whose callers pass msg() literals, and a kind's words (the descriptor's, counted as used above).
    const allowed = /^\s*(e\.title|RANK_TEXT\[|IN_WORDS\[|rule === 'one' \? one : many|\w+\.words\.\w+)/;
    for (const file of sources()) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?<!function )\bt\(([^'"`)][^)]*)\)/g)) {
        assert.match(m[1], allowed, `${file}: t(${m[1]})`);
      }
    }
  });

  it('speaks a language through its fallback chain, English where there is no catalogue', () => {
    assert.equal(interfaceLanguage('de'), 'de');
    assert.equal(interfaceLanguage('de-ch'), 'de');
    assert.equal(interfaceLanguage('fr'), 'fr');
    assert.equal(interfaceLanguage('sv'), 'en');
    assert.equal(translator('de')('Revision {0}', 7), 'Version 7');
    assert.equal(translator('fr')('Save'), 'Enregistrer');
    assert.equal(translator('sv')('Save'), 'Save');
  });

  it('gives the scripts their messages only, as JSON safe inside a script element', () => {
    const de = JSON.parse(scriptMessages('de')) as Record<string, string>;
    assert.equal(de.Save, 'Speichern');
    assert.equal(de['Move qualifier up'], 'Qualifikator nach oben verschieben');
    assert.equal(de['What links here'], undefined, 'a message of the pages only stays on the server');
    assert.ok(!scriptMessages('de').includes('<'));
    assert.equal(scriptMessages('en'), '');
  });
});
