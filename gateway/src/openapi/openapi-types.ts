/**
 * The subset of OpenAPI 3.1 our document uses, typed so a misspelt key or a
 * missing `description` fails the build instead of the lint. Schemas are
 * JSON Schema 2020-12 objects; we keep them open (`JsonSchema`) because ajv
 * checks them at run time and redocly lints them in the test suite.
 */

/** A JSON Schema 2020-12 object (OpenAPI 3.1 Schema Object). */
export type JsonSchema = { [keyword: string]: unknown };

export interface Reference {
  $ref: string;
}

export interface Example {
  summary?: string;
  value: unknown;
}

export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, Example>;
}

export interface Header {
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  description: string;
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface RequestBody {
  description?: string;
  required: boolean;
  content: Record<string, MediaType>;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | Reference>;
  content?: Record<string, MediaType>;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<Parameter | Reference>;
  requestBody?: RequestBody;
  responses: Record<string, Response | Reference>;
}

export type PathItem = Partial<Record<HttpMethod, Operation>>;

export type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description: string }
  | { type: 'apiKey'; in: 'cookie' | 'header'; name: string; description: string };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier?: string; url?: string };
  };
  servers: Array<{ url: string; description: string }>;
  tags: Array<{ name: string; description: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, PathItem>;
  components: {
    securitySchemes: Record<string, SecurityScheme>;
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, Response>;
  };
}

export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
