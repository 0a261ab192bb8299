/**
 * Checks a real response against the OpenAPI document: the status must be
 * documented for the operation, required headers present, documented
 * headers well-formed, and the body valid for its media type. The end-to-end
 * suite calls `assertMatchesOpenApi` on what it receives, so the document and
 * the services cannot drift apart unnoticed.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../openapi/document';
import type { Header, JsonSchema, OpenApiDocument, Operation, Reference, Response } from '../openapi/openapi-types';

const SCHEMA_BASE = 'https://skills-catalog.invalid/schemas/';
const SCHEMA_REF = '#/components/schemas/';

export type ResponseHeaders = Record<string, string | string[] | number | undefined> | Headers;

/** A response that does not match the document; `message` says what differs. */
export class OpenApiMismatchError extends Error {
  override readonly name = 'OpenApiMismatchError';
}

function isRef(value: object): value is Reference {
  return '$ref' in value;
}

/** Points schema references at the ids the component schemas are registered under. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF)
        ? SCHEMA_BASE + inner.slice(SCHEMA_REF.length)
        : rewriteRefs(inner);
  }
  return out;
}

function templateToRegExp(template: string): RegExp {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`);
}

function normaliseHeaders(headers: ResponseHeaders): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => out.set(name.toLowerCase(), value));
    return out;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  }
  return out;
}

function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  if (Buffer.isBuffer(body)) return body.length === 0;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}

/** A validator bound to one document; compiled schemas are cached. */
export function createOpenApiValidator(document: OpenApiDocument = openApiDocument) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addVocabulary(['discriminator', 'example']);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema(rewriteRefs(schema) as JsonSchema, SCHEMA_BASE + name);
  }
  const compiled = new Map<JsonSchema, ValidateFunction>();
  const compile = (schema: JsonSchema): ValidateFunction => {
    let fn = compiled.get(schema);
    if (!fn) {
      fn = ajv.compile(rewriteRefs(schema) as JsonSchema);
      compiled.set(schema, fn);
    }
    return fn;
  };
  const templates = Object.keys(document.paths)
    .map((template) => ({ template, regexp: templateToRegExp(template), params: (template.match(/\{/g) ?? []).length }))
    // a literal segment wins over a parameter: /admin/v1/skills:import before /admin/v1/skills/{slug}
    .sort((a, b) => a.params - b.params);

  const resolve = <T extends object>(value: T | Reference, section: 'responses' | 'headers'): T => {
    if (!isRef(value)) return value;
    const name = value.$ref.slice(`#/components/${section}/`.length);
    const target = (document.components[section] as Record<string, T>)[name];
    if (!target) throw new OpenApiMismatchError(`unresolvable reference ${value.$ref}`);
    return target;
  };

  function findTemplate(path: string): string {
    const bare = path.split('?')[0] ?? path;
    const found = document.paths[bare] ? bare : templates.find((t) => t.regexp.test(bare))?.template;
    if (!found) throw new OpenApiMismatchError(`no path of the document matches ${bare}`);
    return found;
  }

  function findOperation(method: string, path: string): { template: string; operation: Operation } {
    const found = findTemplate(path);
    const operation = document.paths[found]?.[method.toLowerCase() as 'get'];
    if (!operation) throw new OpenApiMismatchError(`${method.toUpperCase()} ${found} is not in the document`);
    return { template: found, operation };
  }

  function checkHeaders(where: string, response: Response, headers: Map<string, string>): void {
    for (const [name, headerOrRef] of Object.entries(response.headers ?? {})) {
      const header = resolve<Header>(headerOrRef, 'headers');
      const value = headers.get(name.toLowerCase());
      if (value === undefined) {
        if (header.required) throw new OpenApiMismatchError(`${where}: required header ${name} is missing`);
        continue;
      }
      const typed = header.schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const fn = compile(header.schema);
      if (!fn(typed)) throw new OpenApiMismatchError(`${where}: header ${name}=${value} ${ajv.errorsText(fn.errors)}`);
    }
  }

  function checkBody(where: string, response: Response, headers: Map<string, string>, body: unknown): void {
    if (!response.content) {
      if (!isEmptyBody(body)) throw new OpenApiMismatchError(`${where}: documented without a body, got one`);
      return;
    }
    const contentType = (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const media = response.content[contentType];
    if (!media) {
      const documented = Object.keys(response.content).join(', ');
      throw new OpenApiMismatchError(`${where}: content type "${contentType}" is not documented (${documented})`);
    }
    const fn = compile(media.schema);
    if (!fn(body)) {
      throw new OpenApiMismatchError(
        `${where}: body ${ajv.errorsText(fn.errors, { dataVar: 'body' })}: ${JSON.stringify(body)}`,
      );
    }
  }

  /** Throws OpenApiMismatchError when the response does not match the document. */
  function assertMatches(method: string, path: string, status: number, headers: ResponseHeaders, body: unknown): void {
    if (status === 405) {
      // 405 answers a method the path does not have, so no operation documents it: check the shared response.
      const template = findTemplate(path);
      const response = document.components.responses.MethodNotAllowed;
      if (!response) throw new OpenApiMismatchError('the document has no MethodNotAllowed response');
      const normalised = normaliseHeaders(headers);
      const where = `${method.toUpperCase()} ${template} → 405`;
      checkHeaders(where, response, normalised);
      checkBody(where, response, normalised, body);
      return;
    }
    const { template, operation } = findOperation(method, path);
    const where = `${method.toUpperCase()} ${template} → ${status}`;
    const documented = operation.responses[String(status)];
    if (!documented) throw new OpenApiMismatchError(`${where}: status ${status} is not documented`);
    const response = resolve<Response>(documented, 'responses');
    const normalised = normaliseHeaders(headers);
    checkHeaders(where, response, normalised);
    checkBody(where, response, normalised, body);
  }

  return { assertMatches, findOperation };
}

let shared: ReturnType<typeof createOpenApiValidator> | undefined;

/**
 * Checks one response against the served document. `path` is a template
 * (`/api/v1/me/collections/{id}`) or a concrete path, query string allowed;
 * `headers` as supertest (`res.headers`) or fetch (`res.headers`) give them;
 * `body` the parsed JSON for JSON answers, the text otherwise (supertest:
 * `res.type === 'application/json' ? res.body : res.text`). A 405 is checked
 * against the shared MethodNotAllowed response, since no operation has it.
 */
export function assertMatchesOpenApi(
  method: string,
  path: string,
  status: number,
  headers: ResponseHeaders,
  body: unknown,
): void {
  shared ??= createOpenApiValidator();
  shared.assertMatches(method, path, status, headers, body);
}
