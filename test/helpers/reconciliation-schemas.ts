// JSON schemas of the W3C Reconciliation Service API 0.2 responses, written from the specification's text (the
// sections on the manifest, reconciliation queries and candidates, suggest, property proposals and data
// extension), to validate what Entia answers. Kept strict where the text says "must".
const string = { type: 'string' };
const idName = { type: 'object', required: ['id', 'name'], properties: { id: string, name: string } };
const service = { type: 'object', required: ['service_url', 'service_path'], properties: { service_url: string, service_path: string } };
const idTemplate = { type: 'string', pattern: '\\{\\{id\\}\\}' };

export const manifestSchema = {
  type: 'object',
  required: ['versions', 'name', 'identifierSpace', 'schemaSpace'],
  properties: {
    versions: { type: 'array', items: string, contains: { const: '0.2' } },
    name: string, identifierSpace: string, schemaSpace: string, documentation: string,
    view: { type: 'object', required: ['url'], properties: { url: idTemplate } },
    preview: { type: 'object', required: ['url', 'width', 'height'],
      properties: { url: idTemplate, width: { type: 'integer' }, height: { type: 'integer' } } },
    defaultTypes: { type: 'array', items: idName, uniqueItems: true },
    suggest: { type: 'object', properties: { entity: service, property: service, type: service } },
    extend: { type: 'object', properties: {
      propose_properties: service,
      property_settings: { type: 'array', items: { type: 'object', required: ['type', 'label', 'name'],
        properties: { type: { enum: ['number', 'text', 'checkbox', 'select'] }, label: string, name: string, help_text: string } } },
    } },
  },
};

export const resultBatchSchema = {
  type: 'object',
  additionalProperties: {
    type: 'object', required: ['result'],
    properties: { result: { type: 'array', items: {
      type: 'object', required: ['id', 'name', 'score', 'match'],
      properties: {
        id: string, name: string, description: string,
        score: { type: 'number', minimum: 0, maximum: 100 },
        match: { type: 'boolean' },
        type: { type: 'array', items: idName },
      },
    } } },
  },
};

const suggestResult = { type: 'object', required: ['result'], properties: { result: { type: 'array', items: {
  type: 'object', required: ['id', 'name'], properties: { id: string, name: string, description: string } } } } };
export const suggestSchema = suggestResult;

export const proposeSchema = {
  type: 'object', required: ['properties'],
  properties: { type: string, limit: { type: 'integer' }, properties: { type: 'array', items: idName } },
};

const cell = { oneOf: [
  { type: 'object', required: ['id', 'name'], additionalProperties: false, properties: { id: string, name: string, description: string } },
  { type: 'object', required: ['str'], additionalProperties: false, properties: { str: string } },
  { type: 'object', required: ['float'], additionalProperties: false, properties: { float: { type: 'number' } } },
  { type: 'object', required: ['int'], additionalProperties: false, properties: { int: { type: 'integer' } } },
  { type: 'object', required: ['bool'], additionalProperties: false, properties: { bool: { type: 'boolean' } } },
  { type: 'object', required: ['date'], additionalProperties: false, properties: { date: { type: 'string',
    pattern: '^-?[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T[0-2][0-9]:[0-5][0-9]:[0-5][0-9](\\.[0-9]+)?(Z|[+-][0-2][0-9]:[0-5][0-9])?$' } } },
] };

export const extensionSchema = {
  type: 'object', required: ['meta', 'rows'],
  properties: {
    meta: { type: 'array', items: idName },
    rows: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'array', items: cell } } },
  },
};
