// The measured shape of real items (bench/distributions.json, written by measure-distributions.ts) and
// the bounds the generator keeps each draw within (issue #8: 5–30 languages, 5–50 statements, 0–30
// sitelinks). Shared by the generator, its smoke test and the measuring script.
import measured from './distributions.json' with { type: 'json' };

/** The quantile levels stored for each measure: min, p10 … p90, max. */
export const DECILES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;

export interface Distributions {
  source: string;
  quantiles: Record<string, number[]>;
  means: Record<string, number>;
  /** Share of main snaks per property data type. */
  dataTypes: Record<string, number>;
  qualifierDataTypes: Record<string, number>;
  referenceDataTypes: Record<string, number>;
  /** Share of `value` / `somevalue` / `novalue`. */
  valueTypes: Record<string, number>;
  /** Share of the most frequent label languages among all labels. */
  languages: Record<string, number>;
  /** Share of the most frequent sites among all sitelinks. */
  sites: Record<string, number>;
}

export const MEASURED: Distributions = measured;

/** Inclusive bounds of a regular (not deliberately large) generated item. */
export const BOUNDS = {
  labels: [5, 30],
  descriptions: [5, 30],
  aliasLanguages: [0, 30],
  aliasesPerLanguage: [1, 8],
  statements: [5, 50],
  qualifiers: [0, 6],
  references: [0, 4],
  referenceParts: [1, 6],
  sitelinks: [0, 30],
  labelLength: [1, 80],
  descriptionLength: [3, 120],
  aliasLength: [1, 80],
  stringValueLength: [1, 120],
} as const satisfies Record<string, readonly [number, number]>;

export type Measure = keyof typeof BOUNDS;
