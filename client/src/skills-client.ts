/**
 * A small typed client of the public API: one method per operation, the
 * `data` envelope unwrapped, and every non-2xx answer thrown as ApiError.
 */
import { ApiError } from './api-error';
import { OPERATIONS, expandPath, type OperationName } from './operations';
import type {
  CollectionPage,
  CreateCollectionInput,
  CreateOptions,
  PageParams,
  PersonalCollection,
  PersonalCollectionPatch,
  SearchParams,
  SearchResult,
  SkillChanges,
  Tagged,
  TeamCollection,
  TeamCollectionPatch,
  WriteOptions,
} from './types';

export interface SkillsClientOptions {
  /** e.g. `http://localhost:3000`; a path prefix is kept */
  baseUrl: string;
  /** `sk_live_…`, sent as `Authorization: Bearer` */
  apiKey: string;
  /** language of error messages (`Accept-Language`); the server's default is English */
  language?: 'en' | 'fr';
  /** defaults to the global fetch (Node ≥ 18, browsers) */
  fetch?: typeof fetch;
}

interface Call {
  params?: Record<string, string>;
  /** an array value repeats its parameter (`tag=a&tag=b`) */
  query?: Record<string, string | number | readonly string[] | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export class SkillsClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: SkillsClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('no fetch available: pass options.fetch');
    this.fetchImpl = fetchImpl;
  }

  searchSkills(params: SearchParams = {}): Promise<SearchResult> {
    const { tags, facets, ...rest } = params;
    return this.call<SearchResult>('searchSkills', { query: { ...rest, tag: tags, facets: facets?.join(',') } });
  }

  /** The changes after `since` (a nextCursor; absent: from the start), at most `limit` (1..500, default 100). */
  listSkillChanges(params: { since?: string; limit?: number } = {}): Promise<SkillChanges> {
    return this.call<SkillChanges>('listSkillChanges', { query: { ...params } });
  }

  /**
   * Every answer of the changes feed from `since` until caught up (`hasMore`
   * false); keep the last `nextCursor` to go on later.
   */
  async *followSkillChanges(since?: string, limit = 500): AsyncGenerator<SkillChanges> {
    for (let cursor = since; ; ) {
      const page = await this.listSkillChanges({ since: cursor, limit });
      yield page;
      if (!page.hasMore) return;
      cursor = page.nextCursor;
    }
  }

  /** One page of the key owner's collections. */
  listMyCollectionsPage(params: PageParams = {}): Promise<CollectionPage<PersonalCollection>> {
    return this.call<CollectionPage<PersonalCollection>>('listMyCollections', { query: { ...params } });
  }

  /** Every collection of the key owner, page after page (at most 100 of them: two requests). */
  listMyCollections(): Promise<PersonalCollection[]> {
    return allPages((page) => this.listMyCollectionsPage({ page, limit: 50 }));
  }

  async createMyCollection(input: CreateCollectionInput, options: CreateOptions = {}): Promise<PersonalCollection> {
    return (await this.call<{ collection: PersonalCollection }>('createMyCollection', { body: input, headers: idempotency(options) }))
      .collection;
  }

  async getMyCollection(id: string): Promise<PersonalCollection> {
    return (await this.getMyCollectionTagged(id)).collection;
  }

  /** The collection and its ETag, to send back as `ifMatch` of a later write. */
  getMyCollectionTagged(id: string): Promise<Tagged<PersonalCollection>> {
    return this.tagged<PersonalCollection>('getMyCollection', { params: { id } });
  }

  async updateMyCollection(id: string, patch: PersonalCollectionPatch, options: WriteOptions = {}): Promise<PersonalCollection> {
    return (await this.updateMyCollectionTagged(id, patch, options)).collection;
  }

  /** `updateMyCollection`, also answering the new ETag. */
  updateMyCollectionTagged(id: string, patch: PersonalCollectionPatch, options: WriteOptions = {}): Promise<Tagged<PersonalCollection>> {
    return this.tagged<PersonalCollection>('updateMyCollection', { params: { id }, body: patch, headers: precondition(options) });
  }

  async deleteMyCollection(id: string, options: WriteOptions = {}): Promise<void> {
    await this.call<{ deleted: true }>('deleteMyCollection', { params: { id }, headers: precondition(options) });
  }

  /** One page of a workspace's shared collections. */
  listWorkspaceCollectionsPage(workspaceId: string, params: PageParams = {}): Promise<CollectionPage<TeamCollection>> {
    return this.call<CollectionPage<TeamCollection>>('listWorkspaceCollections', { params: { id: workspaceId }, query: { ...params } });
  }

  /** Every shared collection of a workspace, page after page (at most 500: ten requests). */
  listWorkspaceCollections(workspaceId: string): Promise<TeamCollection[]> {
    return allPages((page) => this.listWorkspaceCollectionsPage(workspaceId, { page, limit: 50 }));
  }

  async createWorkspaceCollection(
    workspaceId: string,
    input: CreateCollectionInput,
    options: CreateOptions = {},
  ): Promise<TeamCollection> {
    const call = { params: { id: workspaceId }, body: input, headers: idempotency(options) };
    return (await this.call<{ collection: TeamCollection }>('createWorkspaceCollection', call)).collection;
  }

  async getWorkspaceCollection(workspaceId: string, collectionId: string): Promise<TeamCollection> {
    return (await this.getWorkspaceCollectionTagged(workspaceId, collectionId)).collection;
  }

  /** The shared collection and its ETag, to send back as `ifMatch` of a later write. */
  getWorkspaceCollectionTagged(workspaceId: string, collectionId: string): Promise<Tagged<TeamCollection>> {
    return this.tagged<TeamCollection>('getWorkspaceCollection', { params: { id: workspaceId, collectionId } });
  }

  async updateWorkspaceCollection(
    workspaceId: string,
    collectionId: string,
    patch: TeamCollectionPatch,
    options: WriteOptions = {},
  ): Promise<TeamCollection> {
    return (await this.updateWorkspaceCollectionTagged(workspaceId, collectionId, patch, options)).collection;
  }

  /** `updateWorkspaceCollection`, also answering the new ETag. */
  updateWorkspaceCollectionTagged(
    workspaceId: string,
    collectionId: string,
    patch: TeamCollectionPatch,
    options: WriteOptions = {},
  ): Promise<Tagged<TeamCollection>> {
    const call = { params: { id: workspaceId, collectionId }, body: patch, headers: precondition(options) };
    return this.tagged<TeamCollection>('updateWorkspaceCollection', call);
  }

  async deleteWorkspaceCollection(workspaceId: string, collectionId: string, options: WriteOptions = {}): Promise<void> {
    await this.call<{ deleted: true }>('deleteWorkspaceCollection', { params: { id: workspaceId, collectionId }, headers: precondition(options) });
  }

  /**
   * Removes a member from a workspace (owners: anyone; admins: admins,
   * members and viewers), or leaves it with `accountId` `'me'`. The last
   * owner cannot leave (ApiError 409).
   */
  async removeWorkspaceMember(workspaceId: string, accountId: string): Promise<void> {
    await this.call<{ removed: true }>('removeWorkspaceMember', { params: { id: workspaceId, accountId } });
  }

  /** A collection answer with its ETag. */
  private async tagged<C>(name: OperationName, call: Call): Promise<Tagged<C>> {
    const { data, headers } = await this.send<{ collection: C }>(name, call);
    return { collection: data.collection, etag: headers.get('etag') ?? '' };
  }

  private async call<T>(name: OperationName, call: Call): Promise<T> {
    return (await this.send<T>(name, call)).data;
  }

  private async send<T>(name: OperationName, call: Call): Promise<{ data: T; headers: Headers }> {
    const { method, path } = OPERATIONS[name];
    const url = new URL(this.baseUrl + expandPath(path, call.params ?? {}));
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
      else if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${this.options.apiKey}`,
      ...(this.options.language ? { 'Accept-Language': this.options.language } : {}),
      ...call.headers,
    };
    const init: RequestInit = { method, headers };
    if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(call.body);
    }
    const response = await this.fetchImpl(url, init);
    const payload = await readJson(response);
    if (!response.ok) throw toApiError(response, payload);
    if (!isObject(payload) || !('data' in payload)) {
      throw new ApiError(response.status, 'Response is not a { data } envelope', response.headers.get('x-request-id') ?? undefined);
    }
    return { data: payload.data as T, headers: response.headers };
  }
}

function idempotency(options: CreateOptions): Record<string, string> {
  return options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {};
}

function precondition(options: WriteOptions): Record<string, string> {
  return options.ifMatch ? { 'If-Match': options.ifMatch } : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toApiError(response: Response, payload: unknown): ApiError {
  const message = isObject(payload) && typeof payload.error === 'string' ? payload.error : `HTTP ${response.status} ${response.statusText}`.trim();
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    message,
    response.headers.get('x-request-id') ?? undefined,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/** Follows a paged list from page 1 until `hasMore` is false. */
async function allPages<C>(load: (page: number) => Promise<CollectionPage<C>>): Promise<C[]> {
  const all: C[] = [];
  for (let page = 1; ; page++) {
    const { collections, pagination } = await load(page);
    all.push(...collections);
    if (!pagination.hasMore) return all;
  }
}
