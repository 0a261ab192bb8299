/**
 * `@skills/gateway/testing`: what other packages' tests use to hold answers to
 * the OpenAPI document. Never imported by the running gateway, so its
 * validator (ajv) is a development dependency only.
 */
export { assertMatchesOpenApi, createOpenApiValidator, OpenApiMismatchError } from './openapi-validator';
