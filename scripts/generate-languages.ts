// Refreshes the term languages of src/domain/languages.json from Wikidata's own list.
//
//   node --import tsx scripts/generate-languages.ts --from FILE [--out FILE]
//
// The authoritative source is the content-language list of a Wikibase repository: save
//   https://www.wikidata.org/w/api.php?action=query&meta=wbcontentlanguages&wbclcontext=term&format=json
// and pass it with --from. It is MediaWiki's known languages (with the CLDR extension's) plus the codes Wikidata
// adds for terms (e.g. `tokipona`); `mul` is kept, since Entia enables it. The fallbacks, variant groups and
// monolingual-text exclusions in the same file are left as they are.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const from = arg('--from');
if (!from) {
  console.error('usage: node --import tsx scripts/generate-languages.ts --from SAVED_WBCONTENTLANGUAGES_JSON [--out FILE]');
  process.exit(2);
}
const target = arg('--out') ?? fileURLToPath(new URL('../src/domain/languages.json', import.meta.url));
const answer = JSON.parse(readFileSync(from, 'utf8')) as { query: { wbcontentlanguages: Record<string, { code: string }> } };
const codes = new Set(Object.values(answer.query.wbcontentlanguages).map((l) => l.code));
codes.add('mul');
const languages = JSON.parse(readFileSync(fileURLToPath(new URL('../src/domain/languages.json', import.meta.url)), 'utf8'));
languages.$termLanguagesSource = `Wikidata wbcontentlanguages (context term), saved ${new Date().toISOString().slice(0, 10)}`;
languages.termLanguages = [...codes].sort();
writeFileSync(target, `${JSON.stringify(languages, null, 2)}\n`);
console.log(`wrote ${codes.size} term languages from ${from} to ${target}`);
