// Generates src/domain/sites.json, the default site table (docs/api.md "Sitelinks").
//
//   node --import tsx scripts/generate-sites.ts                     rewrite the file from the lists below
//   node --import tsx scripts/generate-sites.ts --sitematrix FILE   rewrite it from Wikimedia's site matrix
//   node --import tsx scripts/generate-sites.ts --check             exit 1 if the file differs from the lists
//   … --out FILE                                                    write FILE instead of src/domain/sites.json
//
// The authoritative source is Wikimedia's site matrix: save
//   https://meta.wikimedia.org/w/api.php?action=sitematrix&format=json&formatversion=2
// and pass it with --sitematrix; every open and closed wiki becomes a site with its database name as id (what
// Wikidata's sitelinks use). The project's own machines cannot reach Wikimedia, so the lists below were
// written down from the site matrix as of 2024–2025 (Meta-Wiki's "List of Wikipedias" etc.), including closed
// and locked editions that still exist and can be linked (e.g. `aa`, `cho`, `ho`), and extended on 2026-11-23
// with the wikis the Wikidata sample dumps link to (bswikinews, huwikinews, thwikinews). A deployment that
// needs another table passes ENTIA_SITES instead of editing the JSON.
//
// Site ids follow Wikidata's: the subdomain with `-` replaced by `_`, plus the project suffix (`enwiki`,
// `zh_min_nanwiki`, `dewikivoyage`), except `be_x_oldwiki`, whose wiki moved to be-tarask.wikipedia.org but kept
// its id. `language` is the subdomain code, as in the site matrix.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Site { group: string; language: string; url: string }

const words = (s: string): string[] => s.trim().split(/\s+/);

const WIKIPEDIA = words(`
  aa ab ace ady af ak als alt am ami an ang ann anp ar arc ary arz as ast atj av avk awa ay az azb ba ban bar bat-smg
  bbc bcl bdr be be-tarask bew bg bh bi bjn blk bm bn bo bpy br bs btm bug bxr ca cbk-zam cdo ce ceb ch cho chr chy
  ckb co cr crh cs csb cu cv cy da dag de dga din diq dsb dtp dty dv dz ee el eml en eo es et eu ext fa fat ff fi
  fiu-vro fj fo fon fr frp frr fur fy ga gag gan gcr gd gl glk gn gom gor got gpe gu guc gur guw gv ha hak haw he hi
  hif ho hr hsb ht hu hy hyw hz ia iba id ie ig igl ii ik ilo inh io is it iu ja jam jbo jv ka kaa kab kbd kbp kcg
  kg kge ki kj kk kl km kn knc ko koi kr krc ks ksh ku kus kv kw ky la lad lb lbe lez lfn lg li lij lld lmo ln lo
  lrc lt ltg lv mad mai map-bms mdf mg mh mhr mi min mk ml mn mni mnw mos mr mrj ms mt mus mwl my myv mzn na nah
  nap nds nds-nl ne new ng nia nl nn no nov nqo nr nrm nso nup nv ny oc olo om or os pa pag pam pap pcd pcm pdc pfl
  pi pih pl pms pnb pnt ps pt pwn qu rm rmy rn ro roa-rup roa-tara rsk ru rue rw sa sah sat sc scn sco sd se sg sh
  shi shn si simple sk skr sl sm smn sn so sq sr srn ss st stq su sv sw syl szl szy ta tay tcy tdd te tet tg th ti
  tig tk tl tly tn to tpi tr trv ts tt tum tw ty tyv udm ug uk ur uz ve vec vep vi vls vo wa war wo wuu xal xh xmf
  yi yo za zea zgh zh zh-classical zh-min-nan zh-yue zu
`); // Cantonese is zh-yue (zh_yuewiki); yue.wikipedia.org only redirects there.

const WIKISOURCE = words(`
  ang ar as az ban bcl be bg bn br bs ca cs cy da de el en eo es et eu fa fi fo fr gl gu he hi hr ht hu hy id is it
  ja jv ka kn ko la li lij lt mad mk ml mni mr my nap nl no or pa pl pms pt ro ru sa sah sk sl sr sv ta te th tr uk
  vec vi wa yi zh zh-min-nan
`);

const WIKIVOYAGE = words('bn de el en eo es fa fi fr he hi it ja nl pl ps pt ro ru shn sv tr uk vi zh');

const WIKIQUOTE = words(`
  af am ar ast az be bg bn br bs ca cs cy da de el en eo es et eu fa fi fr gl gor gu he hi hr hu hy id ig is it ja
  ka kn ko ku ky la li lt ml mr nl nn no pl pt ro ru sa sah sk sl sq sr su sv ta te th tl tr uk ur uz vi zh
`);

const WIKINEWS = words('ar bg bs ca cs de el en eo es fa fi fr guw he hu it ja ko li nl no pl pt ro ru sq sr sv ta th tr uk zh');

const WIKIBOOKS = words(`
  af ar az ba be bg bn bs ca cs cv cy da de el en eo es et eu fa fi fr fy gl he hi hr hu hy ia id is it ja ka kk km
  ko ku ky la li lt mg mk ml mr ms ne nl no oc pa pl pt ro ru sa shn si sk sl sq sr sv ta te tg th tl tr tt uk ur vi
  zh
`);

const WIKTIONARY = words(`
  af am an ang ar as ast ay az bcl be bg bjn blk bn br bs btm ca chr co cs csb cy da de diq dv el en eo es et eu fa
  fi fj fo fr fy ga gd gl gn gom gor gu guw gv ha he hi hif hr hsb hu hy ia id ie ig io is it iu ja jbo jv ka kaa
  kbd kcg kk kl km kn ko ks ku kw ky la lb li lmo ln lo lt lv mad mg mi min mk ml mn mni mnw mr ms mt my na nah nds
  ne nia nl nn no oc om or pa pl pnb ps pt qu ro roa-rup ru rw sa scn sd sg sh shi shn si simple sk skr sl sm so sq
  sr ss st su sv sw ta tcy te tg th ti tk tl tn tpi tr ts tt ug uk ur uz vec vi vo wa wo yi yue zh zh-min-nan zu
`);

const WIKIVERSITY = words('ar beta cs de el en es fi fr hi it ja ko pt ru sl sv zh');

/** Sister projects: [group, site id suffix, domain, language codes]. */
const PROJECTS: Array<[group: string, suffix: string, domain: string, codes: string[]]> = [
  ['wikipedia', 'wiki', 'wikipedia.org', WIKIPEDIA],
  ['wikisource', 'wikisource', 'wikisource.org', WIKISOURCE],
  ['wikivoyage', 'wikivoyage', 'wikivoyage.org', WIKIVOYAGE],
  ['wikiquote', 'wikiquote', 'wikiquote.org', WIKIQUOTE],
  ['wikinews', 'wikinews', 'wikinews.org', WIKINEWS],
  ['wikibooks', 'wikibooks', 'wikibooks.org', WIKIBOOKS],
  ['wiktionary', 'wiktionary', 'wiktionary.org', WIKTIONARY],
  ['wikiversity', 'wikiversity', 'wikiversity.org', WIKIVERSITY],
];

/** Wikis whose id does not follow the subdomain (the wiki was renamed, the id was kept). */
const ID_EXCEPTIONS: Record<string, string> = { 'be-tarask': 'be_x_old' };

/** Multilingual wikis: [site id, group, host]. Wikidata's group names; content language English. */
const SPECIAL: Array<[id: string, group: string, host: string]> = [
  ['commonswiki', 'commons', 'commons.wikimedia.org'],
  ['metawiki', 'meta', 'meta.wikimedia.org'],
  ['specieswiki', 'species', 'species.wikimedia.org'],
  ['wikidatawiki', 'wikidata', 'www.wikidata.org'],
  ['mediawikiwiki', 'mediawiki', 'www.mediawiki.org'],
  ['sourceswiki', 'sources', 'wikisource.org'],
  ['wikimaniawiki', 'wikimania', 'wikimania.wikimedia.org'],
  ['incubatorwiki', 'incubator', 'incubator.wikimedia.org'],
];

export function buildSites(): Record<string, Site> {
  const sites: Record<string, Site> = {};
  const add = (id: string, site: Site) => {
    if (Object.hasOwn(sites, id)) throw new Error(`duplicate site id ${id}`);
    sites[id] = site;
  };
  for (const [group, suffix, domain, codes] of PROJECTS) {
    for (const code of codes) {
      const id = (ID_EXCEPTIONS[code] ?? code).replace(/-/g, '_') + suffix;
      add(id, { group, language: code, url: `https://${code}.${domain}/wiki/$1` });
    }
  }
  for (const [id, group, host] of SPECIAL) add(id, { group, language: 'en', url: `https://${host}/wiki/$1` });
  return sites;
}

/** Wikidata's group names for the site matrix's project codes. */
const MATRIX_GROUPS: Record<string, string> = { wiki: 'wikipedia' };

interface MatrixSite { url: string; dbname: string; code: string; closed?: boolean; private?: boolean; fishbowl?: boolean }

/** The table from a saved `action=sitematrix` answer: public wikis, closed ones included (they can be linked). */
export function sitesFromMatrix(matrix: Record<string, unknown>): Record<string, Site> {
  const sites: Record<string, Site> = {};
  for (const [key, entry] of Object.entries(matrix)) {
    if (key === 'count') continue;
    const languageWikis = key === 'specials' ? [] : ((entry as { site?: MatrixSite[] }).site ?? []);
    const language = key === 'specials' ? 'en' : (entry as { code: string }).code;
    for (const wiki of languageWikis) {
      sites[wiki.dbname] = { group: MATRIX_GROUPS[wiki.code] ?? wiki.code, language, url: `${wiki.url}/wiki/$1` };
    }
    if (key === 'specials') {
      for (const wiki of entry as MatrixSite[]) {
        if (wiki.private || wiki.fishbowl) continue;
        sites[wiki.dbname] = { group: wiki.code, language: 'en', url: `${wiki.url}/wiki/$1` };
      }
    }
  }
  return Object.fromEntries(Object.entries(sites).sort(([a], [b]) => a.localeCompare(b)));
}

/** One site per line keeps the generated file reviewable and its diffs small. */
export function render(sites: Record<string, Site>, source: string): string {
  const lines = Object.entries(sites).map(([id, site]) => `    ${JSON.stringify(id)}: ${JSON.stringify(site)}`);
  return [
    '{',
    '  "$comment": "Generated by scripts/generate-sites.ts; do not edit by hand.",',
    `  "$source": ${JSON.stringify(source)},`,
    '  "sites": {',
    lines.join(',\n'),
    '  }',
    '}',
    '',
  ].join('\n');
}

const LIST_SOURCE = 'Wikimedia site matrix as of 2024-2025, written down in scripts/generate-sites.ts; extended 2026-11-23';
const outAt = process.argv.indexOf('--out');
const target = outAt > 0 ? process.argv[outAt + 1] : fileURLToPath(new URL('../src/domain/sites.json', import.meta.url));
const matrixAt = process.argv.indexOf('--sitematrix');
if (matrixAt > 0) {
  const file = process.argv[matrixAt + 1];
  const answer = JSON.parse(readFileSync(file, 'utf8')) as { sitematrix: Record<string, unknown> };
  const sites = sitesFromMatrix(answer.sitematrix);
  writeFileSync(target, render(sites, `Wikimedia site matrix (action=sitematrix), saved ${new Date().toISOString().slice(0, 10)}`));
  console.log(`wrote ${Object.keys(sites).length} sites from ${file} to ${target}`);
  process.exit(0);
}
const text = render(buildSites(), LIST_SOURCE);
if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== text) {
    console.error(`${target} is out of date: run node --import tsx scripts/generate-sites.ts`);
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.log(`wrote ${Object.keys(buildSites()).length} sites to ${target}`);
}
