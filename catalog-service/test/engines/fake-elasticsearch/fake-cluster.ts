/**
 * The state of the fake cluster: indices (mapping, documents with their
 * external versions, and which writes a refresh has made searchable),
 * aliases, and the operations the engine calls. Writes through a missing
 * name auto-create an index with dynamic mappings, as Elasticsearch does,
 * unless the request requires an alias.
 */
import type { estypes } from '@elastic/elasticsearch';
import { runSearch, type StoredDocument } from './search';
import type { Source } from './query-eval';

export class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(reason);
  }
}

interface Index {
  mappings: estypes.MappingTypeMapping;
  settings: Record<string, unknown>;
  docs: Map<string, StoredDocument>;
  /** ids written since the last refresh (searches do not see them yet) */
  pending: Set<string>;
  /** what searches see: the document as of the last refresh */
  visible: Map<string, StoredDocument>;
}

export interface BulkItemResult {
  index: { _index: string; _id: string; status: number; _version?: number; result?: string; error?: { type: string; reason: string } };
}

export class FakeCluster {
  readonly indices = new Map<string, Index>();
  /** alias → indices */
  readonly aliases = new Map<string, Set<string>>();
  /** every search body the engine sent, in order */
  readonly searches: estypes.SearchRequest[] = [];

  createIndex(name: string, body: { settings?: Record<string, unknown>; mappings?: estypes.MappingTypeMapping; aliases?: Record<string, unknown> }): void {
    if (this.indices.has(name) || this.aliases.has(name)) throw new EsError(400, 'resource_already_exists_exception', `index [${name}] already exists`);
    this.indices.set(name, { mappings: body.mappings ?? {}, settings: body.settings ?? {}, docs: new Map(), pending: new Set(), visible: new Map() });
    for (const alias of Object.keys(body.aliases ?? {})) this.alias(alias).add(name);
  }

  private alias(name: string): Set<string> {
    let set = this.aliases.get(name);
    if (!set) this.aliases.set(name, (set = new Set()));
    return set;
  }

  /** Index names behind a name (an index or an alias); 404 when there are none. */
  resolve(name: string): string[] {
    const names = name.split(',').flatMap((n) => (this.indices.has(n) ? [n] : [...(this.aliases.get(n) ?? [])]));
    if (names.length === 0) throw new EsError(404, 'index_not_found_exception', `no such index [${name}]`);
    return names;
  }

  deleteIndices(name: string): void {
    for (const index of this.resolve(name)) {
      this.indices.delete(index);
      for (const [alias, set] of this.aliases) {
        set.delete(index);
        if (set.size === 0) this.aliases.delete(alias);
      }
    }
  }

  updateAliases(actions: estypes.IndicesUpdateAliasesAction[]): void {
    for (const action of actions) {
      if (action.add) this.resolve(String(action.add.index));
      if (action.remove && !this.aliases.get(String(action.remove.alias))?.has(String(action.remove.index))) {
        throw new EsError(404, 'aliases_not_found_exception', `aliases [${action.remove.alias}] missing`);
      }
    }
    for (const action of actions) {
      if (action.add) this.alias(String(action.add.alias)).add(String(action.add.index));
      if (action.remove) {
        const set = this.aliases.get(String(action.remove.alias))!;
        set.delete(String(action.remove.index));
        if (set.size === 0) this.aliases.delete(String(action.remove.alias));
      }
    }
  }

  mappingsOf(name: string): Record<string, { mappings: estypes.MappingTypeMapping }> {
    return Object.fromEntries(this.resolve(name).map((index) => [index, { mappings: this.indices.get(index)!.mappings }]));
  }

  putMapping(name: string, body: estypes.MappingTypeMapping): void {
    for (const index of this.resolve(name)) {
      const held = this.indices.get(index)!.mappings;
      if (body._meta) held._meta = body._meta;
      if (body.properties) held.properties = { ...held.properties, ...body.properties };
    }
  }

  refresh(name: string): void {
    for (const index of this.resolve(name)) {
      const held = this.indices.get(index)!;
      for (const id of held.pending) {
        const doc = held.docs.get(id);
        if (doc) held.visible.set(id, doc);
      }
      held.pending.clear();
    }
  }

  /** One bulk `index` action with external versioning. */
  write(target: string, id: string, version: number, source: Source, requireAlias: boolean): BulkItemResult {
    if (requireAlias && !this.aliases.has(target)) {
      return failure(target, id, 404, 'index_not_found_exception', `no such index [${target}] and [require_alias] request flag is [true] and [${target}] is not an alias`);
    }
    if (!this.indices.has(target) && !this.aliases.has(target)) this.createIndex(target, { mappings: { dynamic: true } });
    const names = this.resolve(target);
    if (names.length !== 1) return failure(target, id, 400, 'illegal_argument_exception', `no write index is defined for alias [${target}]`);
    const index = this.indices.get(names[0]!)!;
    const strictError = strictViolation(index.mappings, source);
    if (strictError) return failure(names[0]!, id, 400, 'strict_dynamic_mapping_exception', strictError);
    const held = index.docs.get(id);
    if (held && held.version >= version) {
      return failure(names[0]!, id, 409, 'version_conflict_engine_exception', `[${id}]: version conflict, current version [${held.version}] is higher or equal to the one provided [${version}]`);
    }
    index.docs.set(id, { id, version, source });
    index.pending.add(id);
    return { index: { _index: names[0]!, _id: id, _version: version, result: held ? 'updated' : 'created', status: held ? 200 : 201 } };
  }

  get(name: string, id: string): StoredDocument | undefined {
    for (const index of this.resolve(name)) {
      const doc = this.indices.get(index)!.docs.get(id);
      if (doc) return doc;
    }
    return undefined;
  }

  search(name: string, body: estypes.SearchRequest): Record<string, unknown> {
    this.searches.push(body);
    const docs = this.resolve(name).flatMap((index) => [...this.indices.get(index)!.visible.values()]);
    return runSearch(docs, body);
  }

  /** The documents of an index or alias as searches see them. */
  visibleDocuments(name: string): StoredDocument[] {
    return this.resolve(name).flatMap((index) => [...this.indices.get(index)!.visible.values()]);
  }
}

function failure(index: string, id: string, status: number, type: string, reason: string): BulkItemResult {
  return { index: { _index: index, _id: id, status, error: { type, reason } } };
}

/** `dynamic: strict`: a field the mapping does not name is refused; rank_features values must be positive. */
function strictViolation(mappings: estypes.MappingTypeMapping, source: Source): string | undefined {
  if (mappings.dynamic !== 'strict') return undefined;
  const properties = mappings.properties ?? {};
  for (const [field, value] of Object.entries(source)) {
    const property = properties[field];
    if (!property) return `mapping set to strict, dynamic introduction of [${field}] within [_doc] is not allowed`;
    if (property.type === 'rank_features') {
      for (const [feature, weight] of Object.entries(value as Record<string, number>)) {
        if (!(weight > 0) || !Number.isFinite(weight)) return `[rank_features] fields do not support negative or zero values: [${feature}]`;
      }
    }
  }
  return undefined;
}
