// Pseudo-words in the scripts real labels use, so that generated terms have realistic byte sizes (one byte
// for Latin, two for Cyrillic or Arabic, three for CJK) and exercise the same JSON escaping as real data.
import type { Rng } from './prng.js';

const SYLLABLES: Record<string, readonly string[]> = {
  latin: ['ka', 'ri', 'mo', 'len', 'sta', 'bur', 'go', 'vil', 'ne', 'as', 'tor', 'me', 'lin', 'da', 'sel', 'ber',
    'ur', 'an', 'ho', 'wick', 'ton', 'ez', 'ca', 'pe', 'lo', 'mar', 'gra', 'vi', 'é', 'ø', 'ü', 'ss'],
  cyrillic: ['ка', 'ри', 'мо', 'лен', 'ста', 'бур', 'го', 'вил', 'не', 'ов', 'тор', 'ме', 'ин', 'да', 'ск', 'ий'],
  arabic: ['كا', 'ري', 'مو', 'لن', 'ستا', 'بور', 'غو', 'فيل', 'نه', 'اس', 'تور', 'مي', 'ال', 'دا'],
  greek: ['κα', 'ρι', 'μο', 'λεν', 'στα', 'μπο', 'γο', 'βιλ', 'νε', 'ας', 'τορ', 'με', 'ος'],
  hebrew: ['קא', 'רי', 'מו', 'לן', 'סטא', 'בור', 'גו', 'ויל', 'נה', 'אס', 'טור'],
  han: ['加', '拿', '大', '湖', '泊', '山', '河', '市', '县', '乡', '村', '站', '学', '院', '岛', '桥', '科', '属'],
  kana: ['カ', 'リ', 'モ', 'レン', 'スタ', 'ブル', 'ゴ', 'ヴィ', 'ネ', 'ア', 'トー', '湖', '山', '川', '駅'],
  hangul: ['카', '리', '모', '렌', '스타', '부르', '고', '빌', '네', '아', '토', '호', '산', '강', '역'],
  devanagari: ['का', 'री', 'मो', 'लेन', 'स्टा', 'बुर', 'गो', 'विल', 'ने', 'अस', 'टोर'],
  bengali: ['কা', 'রি', 'মো', 'লেন', 'স্টা', 'বুর', 'গো', 'ভিল', 'নে'],
  tamil: ['கா', 'ரி', 'மோ', 'லென்', 'ஸ்டா', 'பூர்', 'கோ', 'வில்'],
  thai: ['กา', 'ริ', 'โม', 'เลน', 'สตา', 'บูร', 'โก', 'วิล'],
  georgian: ['კა', 'რი', 'მო', 'ლენ', 'სტა', 'ბურ', 'გო', 'ვილ'],
  armenian: ['կա', 'րի', 'մո', 'լեն', 'ստա', 'բուր', 'գո', 'վիլ'],
};

const SCRIPT_OF: Record<string, string> = {};
const assign = (script: string, langs: string) => { for (const l of langs.split(' ')) SCRIPT_OF[l] = script; };
assign('cyrillic', 'ru uk be be-tarask bg sr mk kk ky tg mn ba tt cv ce os sah ab av myv mhr udm koi kbd lez krc');
assign('arabic', 'ar fa ur arz azb ps ckb ug sd pnb mzn glk lrc ary ks');
assign('greek', 'el');
assign('hebrew', 'he yi');
assign('han', 'zh zh-hans zh-hant zh-cn zh-tw zh-hk zh-sg zh-mo zh-my wuu yue gan lzh');
assign('kana', 'ja');
assign('hangul', 'ko');
assign('devanagari', 'hi mr ne sa bho mai new');
assign('bengali', 'bn as');
assign('tamil', 'ta');
assign('thai', 'th');
assign('georgian', 'ka xmf');
assign('armenian', 'hy hyw');

export function scriptOf(language: string): string {
  return SCRIPT_OF[language] ?? 'latin';
}

/** Scripts without spaces between words. */
const UNSPACED = new Set(['han', 'kana', 'thai']);

/** A pseudo-phrase of about `length` code points in the script, without leading or trailing spaces. */
export function phrase(rng: Rng, script: string, length: number, capitalise = true): string {
  const syllables = SYLLABLES[script];
  const space = UNSPACED.has(script) ? '' : ' ';
  let out = '';
  let word = '';
  let codePoints = 0;
  while (codePoints < length) {
    const s = rng.pick(syllables);
    word += s;
    codePoints += [...s].length;
    if (codePoints < length - 1 && word.length > 2 && rng.chance(0.3)) {
      out += (capitalise && script === 'latin' ? word[0].toUpperCase() + word.slice(1) : word) + space;
      codePoints += space.length;
      word = '';
    }
  }
  out += capitalise && script === 'latin' ? word[0].toUpperCase() + word.slice(1) : word;
  return out.trim();
}

const ALNUM = [...'0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** An identifier-like string (external ids): digits, or letters and digits. */
export function identifier(rng: Rng, length: number): string {
  const digitsOnly = rng.chance(0.5);
  let out = '';
  for (let i = 0; i < length; i++) out += digitsOnly ? String(rng.int(i === 0 ? 1 : 0, 9)) : rng.pick(ALNUM);
  return out;
}
