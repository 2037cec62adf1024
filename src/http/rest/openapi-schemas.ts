// JSON Schemas of what Entia answers, for the OpenAPI document (openapi.ts). Written from the shapes in
// docs/api.md; test/http/openapi.test.ts and the fuzz test validate real responses against them.
import { ENTITY_ID_PATTERN, ITEM, PROPERTY } from '../../domain/kinds.js';

const string = { type: 'string' } as const;
const nullable = (schema: Record<string, unknown>) => ({ oneOf: [{ type: 'null' }, schema] });

const propertyRef = {
  type: 'object', required: ['id', 'data-type'], additionalProperties: false,
  properties: { id: { type: 'string', pattern: `^${PROPERTY.prefix}[1-9][0-9]*$` }, 'data-type': { type: ['string', 'null'] } },
};
const value = {
  type: 'object', required: ['type'], additionalProperties: false,
  properties: { type: { enum: ['value', 'somevalue', 'novalue'] }, content: {} },
};
const snak = { type: 'object', required: ['property', 'value'], additionalProperties: false, properties: { property: propertyRef, value } };

export const SCHEMAS: Record<string, Record<string, unknown>> = {
  TermMap: { type: 'object', additionalProperties: string, description: 'language code → text' },
  AliasMap: { type: 'object', additionalProperties: { type: 'array', items: string }, description: 'language code → aliases' },
  Aliases: { type: 'array', items: string },
  Term: string,
  Message: { type: 'string', description: 'A short text, e.g. "Label deleted"' },
  Snak: snak,
  Statement: {
    type: 'object', required: ['id', 'rank', 'qualifiers', 'references', 'property', 'value'], additionalProperties: false,
    properties: {
      id: { type: 'string', pattern: `^${ENTITY_ID_PATTERN}\\$.+$` },
      rank: { enum: ['preferred', 'normal', 'deprecated'] },
      qualifiers: { type: 'array', items: { $ref: '#/components/schemas/Snak' } },
      references: { type: 'array', items: {
        type: 'object', required: ['hash', 'parts'], additionalProperties: false,
        properties: { hash: { type: 'string', pattern: '^[0-9a-f]{40}$' }, parts: { type: 'array', items: { $ref: '#/components/schemas/Snak' } } },
      } },
      property: propertyRef,
      value,
    },
  },
  StatementMap: {
    type: 'object', description: 'property id → statements',
    additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/Statement' } },
  },
  Sitelink: {
    type: 'object', required: ['title', 'badges', 'url'], additionalProperties: false,
    properties: { title: string, badges: { type: 'array', items: string }, url: string },
  },
  SitelinkMap: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Sitelink' }, description: 'site id → sitelink' },
  Item: {
    type: 'object', required: ['id'], additionalProperties: false,
    description: 'An item; with `_fields`, only the members asked for (and `id`)',
    properties: {
      id: { type: 'string', pattern: `^${ITEM.prefix}[1-9][0-9]*$` }, type: { const: ITEM.name },
      labels: { $ref: '#/components/schemas/TermMap' }, descriptions: { $ref: '#/components/schemas/TermMap' },
      aliases: { $ref: '#/components/schemas/AliasMap' }, statements: { $ref: '#/components/schemas/StatementMap' },
      sitelinks: { $ref: '#/components/schemas/SitelinkMap' },
    },
  },
  Property: {
    type: 'object', required: ['id'], additionalProperties: false,
    description: 'A property; `data_type` is absent from GET, present in POST and PATCH responses',
    properties: {
      id: { type: 'string', pattern: `^${PROPERTY.prefix}[1-9][0-9]*$` }, type: { const: PROPERTY.name }, data_type: string,
      labels: { $ref: '#/components/schemas/TermMap' }, descriptions: { $ref: '#/components/schemas/TermMap' },
      aliases: { $ref: '#/components/schemas/AliasMap' }, statements: { $ref: '#/components/schemas/StatementMap' },
    },
  },
  SearchResults: {
    type: 'object', required: ['results'], additionalProperties: false,
    properties: { results: { type: 'array', items: {
      type: 'object', required: ['id', 'display-label', 'description', 'match'], additionalProperties: false,
      properties: {
        id: string,
        'display-label': nullable({ type: 'object', required: ['language', 'value'], properties: { language: string, value: string } }),
        description: nullable({ type: 'object', required: ['language', 'value'], properties: { language: string, value: string } }),
        match: { type: 'object', required: ['type', 'text'], additionalProperties: false,
          properties: { type: { enum: ['label', 'alias', 'entityId', 'statement'] }, language: string, text: string } },
      },
    } } },
  },
  DataTypes: { type: 'object', additionalProperties: string, description: 'data type → value type' },
  Statistics: {
    type: 'object', required: ['entities', 'redirects'], additionalProperties: false,
    properties: {
      entities: { type: 'object', additionalProperties: { type: 'integer' }, description: 'entities of each kind (item, property), redirects left out' },
      redirects: { type: 'object', additionalProperties: { type: 'integer' }, description: 'redirects of each kind' },
    },
  },
  Batch: {
    type: 'object', required: ['entities', 'missing', 'redirects'], additionalProperties: false,
    properties: {
      entities: { type: 'object', description: 'id → the entity (an item or a property, narrowed as asked)',
        additionalProperties: { oneOf: [{ $ref: '#/components/schemas/Item' }, { $ref: '#/components/schemas/Property' }] } },
      missing: { type: 'array', items: string },
      redirects: { type: 'object', additionalProperties: string, description: 'requested id → the id it redirects to' },
    },
  },
  Lookup: {
    type: 'object', required: ['ids', 'next'], additionalProperties: false,
    properties: {
      ids: { type: 'array', items: string, description: 'Matching ids in id order' },
      next: { type: ['string', 'null'], description: 'The `after` of the next page, or null on the last' },
    },
  },
  IncomingLinks: {
    type: 'object', required: ['links', 'next'], additionalProperties: false,
    properties: {
      links: { type: 'array', description: 'Linking entities, items first, each in id order', items: {
        type: 'object', required: ['id', 'properties'], additionalProperties: false,
        properties: { id: string, properties: { type: 'array', items: string, description: 'The properties whose values link' } },
      } },
      next: { type: ['string', 'null'], description: 'The `after` of the next page, or null on the last' },
    },
  },
  Changes: {
    type: 'object', required: ['changes', 'next'], additionalProperties: false,
    properties: {
      changes: { type: 'array', items: {
        type: 'object', required: ['cursor', 'entity', 'type', 'revision', 'timestamp', 'user', 'comment'], additionalProperties: false,
        properties: { cursor: string, entity: string, type: { enum: ['create', 'edit', 'redirect', 'revert'] },
          revision: { type: 'integer' }, timestamp: string, user: string, comment: { type: ['string', 'null'] } },
      } },
      next: { type: 'string', description: 'The `since` of the next page; the same position when nothing was new' },
    },
  },
  History: {
    type: 'object', required: ['revisions', 'next'], additionalProperties: false,
    properties: {
      revisions: { type: 'array', items: {
        type: 'object', required: ['id', 'timestamp', 'user', 'comment', 'tags', 'bot', 'size'], additionalProperties: false,
        properties: { id: { type: 'integer' }, timestamp: string, user: string, comment: { type: ['string', 'null'] },
          tags: { type: 'array', items: string }, bot: { type: 'boolean' }, size: { type: 'integer' } },
      } },
      next: { type: ['string', 'null'], description: 'The `before` of the next page, or null on the last' },
    },
  },
  Merge: {
    type: 'object', required: ['source', 'target'], additionalProperties: false,
    properties: {
      source: { type: 'object', required: ['id', 'revision', 'redirect'], additionalProperties: false,
        description: 'The item merged away: its new revision, and the item it now redirects to (null when an ignored conflict left content on it)',
        properties: { id: string, revision: { type: 'integer' }, redirect: { type: ['string', 'null'] } } },
      target: { $ref: '#/components/schemas/Item' },
    },
  },
  ConstraintViolations: {
    type: 'object', required: ['violations'], additionalProperties: false,
    properties: { violations: { type: 'array', items: {
      type: 'object', required: ['statement_id', 'property_id', 'place', 'status', 'message', 'constraint'], additionalProperties: false,
      properties: {
        statement_id: string, property_id: string, place: { enum: ['main', 'qualifier', 'reference'] },
        status: { enum: ['violation', 'warning', 'suggestion', 'bad-parameters'] }, message: string,
        constraint: { type: 'object', required: ['id', 'type', 'type_item', 'property_id'], additionalProperties: false,
          properties: { id: string, type: string, type_item: string, property_id: string } },
      },
    } } },
  },
  QuickStatements: {
    type: 'object', required: ['batch', 'done', 'failed', 'commands'], additionalProperties: false,
    properties: {
      batch: { type: 'string', description: 'The batch id, which every revision it wrote names in its comment' },
      done: { type: 'integer' }, failed: { type: 'integer' },
      commands: { type: 'array', items: {
        type: 'object', required: ['line', 'command', 'status'], additionalProperties: false,
        properties: {
          line: { type: 'integer' }, command: string, status: { enum: ['done', 'failed'] },
          entity: string, revision: { type: 'integer' },
          error: { type: 'object', required: ['code', 'message'], properties: { code: string, message: string, context: { type: 'object' } } },
        },
      } },
    },
  },
  OpenApi: { type: 'object', required: ['openapi', 'info', 'paths'] },
  Error: {
    type: 'object', required: ['code', 'message'], additionalProperties: false,
    properties: {
      code: string, message: string, context: { type: 'object' },
      errorKey: string, httpCode: { type: 'integer' }, httpReason: string,
    },
  },
};

/** What a route's success body is; `Entity` is Item or Property by the route's kind. */
export type ResponseSchema = 'Entity' | 'TermMap' | 'Term' | 'AliasMap' | 'Aliases' | 'StatementMap' | 'Statement'
  | 'SitelinkMap' | 'Sitelink' | 'Message' | 'SearchResults' | 'DataTypes' | 'OpenApi' | 'History' | 'Changes' | 'Batch' | 'Lookup' | 'IncomingLinks'
  | 'Merge' | 'QuickStatements' | 'ConstraintViolations' | 'Statistics';
