// Checks a real response against Entia's own OpenAPI document: the status must be documented for that route,
// an error's code must be one the route lists, and the body must match the documented schema (ajv, JSON
// Schema 2020-12 as OpenAPI 3.1 uses it).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

export type ResponseCheck = (path: string, method: string, status: number, text: string) => string | null;

/** `path` is the OpenAPI path of the route (with {params}); returns null when the response conforms, else why not. */
export function responseChecker(document: Record<string, any>): ResponseCheck {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema({ ...document, $id: 'entia-openapi' });
  const compiled = new Map<string, ValidateFunction>();
  return (path, method, status, text) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation) return `${method} ${path} is not in the document`;
    const response = operation.responses[String(status)];
    if (!response) return `${method} ${path} does not document status ${status}`;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return text === '' ? null : `${method} ${path} ${status} documents an empty body, got ${text.slice(0, 200)}`;
    const pointer = ['paths', path, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']
      .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, validate = ajv.compile({ $ref: `entia-openapi#/${pointer}` }));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${method} ${path} ${status}: body is not JSON: ${text.slice(0, 200)}`;
    }
    if (validate(body)) return null;
    return `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)} in ${text.slice(0, 300)}`;
  };
}
