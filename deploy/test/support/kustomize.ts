/**
 * A small in-process renderer for the subset of kustomize that deploy/k8s
 * uses, so `npm test` renders the overlays on a machine with only Node (no
 * kubectl, no cluster). It reads real kustomization.yaml files and refuses
 * any field it does not implement, so the manifests cannot drift into
 * kustomize features this renderer would silently ignore. Where kubectl is
 * installed, a test compares this output with `kubectl kustomize`.
 *
 * Supported: `resources` (files, multi-document YAML, directories holding a
 * kustomization), `namespace`, `images` (newName / newTag / digest) and
 * `patches` given by `path` whose target is the patch's own
 * apiVersion/kind/name, applied as strategic merge: maps merge, `null`
 * deletes a key, lists of objects keyed by `name` merge by name, other lists
 * replace.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A Kubernetes object as parsed from YAML. */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string } & Record<string, unknown>;
} & Record<string, unknown>;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches']);
/** Kinds the namespace transformer leaves alone (cluster-scoped). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'StorageClass',
  'IngressClass',
]);

export function parseYamlDocuments(text: string, source: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0].message}`);
      return doc.toJS() as Manifest | null;
    })
    .filter((m): m is Manifest => m !== null);
}

function isObject(value: unknown): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyedByName(list: Json[]): boolean {
  return list.every((item) => isObject(item) && typeof item.name === 'string');
}

/** Strategic merge of `patch` onto `base` (see the file comment for the rules). */
export function strategicMerge(base: Json, patch: Json): Json {
  if (isObject(base) && isObject(patch)) {
    const out: { [key: string]: Json } = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete out[key];
      else out[key] = key in base ? strategicMerge(base[key], value) : value;
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(patch) && base.length > 0 && keyedByName(base) && keyedByName(patch)) {
    const merged = base.map((item) => {
      const match = patch.find((p) => (p as { name: string }).name === (item as { name: string }).name);
      return match ? strategicMerge(item, match) : item;
    });
    const added = patch.filter((p) => !base.some((b) => (b as { name: string }).name === (p as { name: string }).name));
    return [...merged, ...added];
  }
  return patch;
}

function sameObject(a: Manifest, b: Manifest): boolean {
  const group = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
  return group(a.apiVersion) === group(b.apiVersion) && a.kind === b.kind && a.metadata.name === b.metadata.name;
}

/** Every container list of a workload's pod template (Deployment, Job, ...). */
export function podSpecOf(manifest: Manifest): Record<string, unknown> | undefined {
  const spec = manifest.spec as
    | {
        template?: { spec?: Record<string, unknown> };
        jobTemplate?: { spec?: { template?: { spec?: Record<string, unknown> } } };
      }
    | undefined;
  return spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec;
}

export function containersOf(manifest: Manifest): Array<Record<string, unknown>> {
  const pod = podSpecOf(manifest);
  if (!pod) return [];
  return [
    ...((pod.initContainers as Array<Record<string, unknown>>) ?? []),
    ...((pod.containers as Array<Record<string, unknown>>) ?? []),
  ];
}

function applyImages(manifest: Manifest, rules: ImageRule[]): void {
  for (const container of containersOf(manifest)) {
    const image = String(container.image);
    const name = image.split('@')[0].replace(/:[^/:]+$/, '');
    const rule = rules.find((r) => r.name === name);
    if (!rule) continue;
    let next = rule.newName ?? name;
    if (rule.digest) next += `@${rule.digest}`;
    else if (rule.newTag) next += `:${rule.newTag}`;
    else if (image !== name) next += image.slice(name.length);
    container.image = next;
  }
}

/** Renders the kustomization in `dir` into its list of objects. */
export function renderKustomization(dir: string): Manifest[] {
  const root = resolve(dir);
  const file = join(root, 'kustomization.yaml');
  const [kustomization] = parseYamlDocuments(readFileSync(file, 'utf8'), file) as unknown as Array<
    Record<string, unknown>
  >;
  const unsupported = Object.keys(kustomization).filter((k) => !SUPPORTED_FIELDS.has(k));
  if (unsupported.length > 0)
    throw new Error(`${file}: fields not supported by the test renderer: ${unsupported.join(', ')}`);

  let objects: Manifest[] = [];
  for (const entry of (kustomization.resources as string[]) ?? []) {
    const path = join(root, entry);
    if (!existsSync(path)) throw new Error(`${file}: resource ${entry} does not exist`);
    objects.push(
      ...(statSync(path).isDirectory()
        ? renderKustomization(path)
        : parseYamlDocuments(readFileSync(path, 'utf8'), path)),
    );
  }

  for (const patchEntry of (kustomization.patches as Array<Record<string, unknown>>) ?? []) {
    if (Object.keys(patchEntry).some((k) => k !== 'path'))
      throw new Error(`${file}: only patches given by path are supported`);
    const patchFile = join(root, String(patchEntry.path));
    for (const patch of parseYamlDocuments(readFileSync(patchFile, 'utf8'), patchFile)) {
      const index = objects.findIndex((o) => sameObject(o, patch));
      if (index < 0) throw new Error(`${patchFile}: no ${patch.kind} ${patch.metadata.name} to patch`);
      objects[index] = strategicMerge(
        objects[index] as unknown as Json,
        patch as unknown as Json,
      ) as unknown as Manifest;
    }
  }

  const namespace = kustomization.namespace as string | undefined;
  if (namespace) {
    objects = objects.map((o) => (CLUSTER_SCOPED.has(o.kind) ? o : { ...o, metadata: { ...o.metadata, namespace } }));
  }
  const images = (kustomization.images as ImageRule[]) ?? [];
  if (images.length > 0) objects.forEach((o) => applyImages(o, images));
  return objects;
}
