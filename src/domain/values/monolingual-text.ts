// The `monolingualtext` data type (docs/api.md §5 table, Appendix A).
import { isMonolingualLanguage } from '../languages.js';
import type { DataType } from './lookup.js';
import { check, contentObject, requireFields } from './fields.js';
import { isContentString } from './strings.js';

export const MONOLINGUAL_TEXT_TYPES: Record<string, DataType> = {
  monolingualtext: {
    valueType: 'monolingualtext',
    normalise(content, path) {
      const fields = contentObject(content, path);
      requireFields(fields, path, ['text', 'language']);
      const { text, language } = fields;
      check(isContentString(text, 400), path, content);
      check(typeof language === 'string' && isMonolingualLanguage(language), path, content);
      return { text, language };
    },
  },
};
