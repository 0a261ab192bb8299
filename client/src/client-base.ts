/** What every method of SkillsClient shares: the transport, the unwrapped `data`, a collection with its ETag. */
import type { OperationName } from './operations';
import { Transport, type Call } from './transport';
import type { Tagged } from './types';

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

export abstract class ClientBase {
  protected readonly http: Transport;

  /** With options, a client of the API key; the session client hands in its own transport. */
  constructor(options: SkillsClientOptions | Transport) {
    this.http =
      options instanceof Transport ? options : new Transport({ ...options, credentials: { apiKey: options.apiKey } });
  }

  /** A collection answer with its ETag. */
  protected async tagged<C>(name: OperationName, call: Call): Promise<Tagged<C>> {
    const { data, headers } = await this.http.send<{ collection: C }>(name, call);
    return { collection: data.collection, etag: headers.get('etag') ?? '' };
  }

  protected async call<T>(name: OperationName, call: Call): Promise<T> {
    return (await this.http.send<T>(name, call)).data;
  }
}
