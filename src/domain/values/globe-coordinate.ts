// The `globe-coordinate` data type (docs/api.md §5.3).
import type { DataType } from './lookup.js';
import { CONCEPT_URI, check, contentObject, requireFields } from './fields.js';

const EARTH = 'http://www.wikidata.org/entity/Q2';

// §5.3: upstream bounds both angles by ±360 only (latitude 100 is accepted).
const isAngle = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= -360 && v <= 360;

export const GLOBE_COORDINATE_TYPES: Record<string, DataType> = {
  'globe-coordinate': {
    valueType: 'globecoordinate',
    normalise(content, path) {
      const fields = contentObject(content, path);
      requireFields(fields, path, ['latitude', 'longitude', 'precision']);
      const { latitude, longitude, precision } = fields;
      check(isAngle(latitude) && isAngle(longitude), path, content);
      // Upstream's validation rejects a null precision although its model allows one.
      check(typeof precision === 'number' && Number.isFinite(precision), path, content);
      // An absent (or null) globe means Earth.
      const globe = fields.globe ?? EARTH;
      check(typeof globe === 'string' && CONCEPT_URI.test(globe), path, content);
      // Output: exactly these four fields; `altitude` is dropped.
      return { latitude, longitude, precision, globe };
    },
  },
};
