/**
 * The gateway's own calls to collections-service (domain/workspaces/collections-service.ts):
 * signed for the caller like a proxied request, JSON in and out, and
 * admitted like one (admission.ts): they count against the service's places
 * and are shed with 503 + Retry-After when none is free.
 */
import { EMPTY_BODY, bodyDigest, type PrincipalSigner } from '@skills/common';
import type { Caller, CollectionsCalls, Outcome } from '../../domain/workspaces/collections-service';
import { signable } from '../../domain/keys/key-authenticator';
import { routeClassOf, type AdmissionGate } from '../limits/admission';
import type { UpstreamName } from '../proxy/route-table';
import type { Upstream, UpstreamCall } from '../proxy/upstream-proxy';

export class SignedCollectionsCalls implements CollectionsCalls {
  constructor(
    private readonly deps: {
      upstreams: Record<UpstreamName, Upstream>;
      signer: PrincipalSigner;
      admission: AdmissionGate;
    },
  ) {}

  async call<T>(caller: Caller, method: UpstreamCall['method'], path: string, body?: object): Promise<Outcome<T>> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const signed = text === undefined ? EMPTY_BODY : bodyDigest(text);
    // signed once a place is had, as a proxied request is: waiting never ages it
    const sign = () => this.deps.signer.sign(signable(caller.principal), 'collections-service', method, path, signed);
    const answer = await this.deps.admission.run(routeClassOf('collections', method), () =>
      this.deps.upstreams.collections.call({
        method,
        path,
        sign,
        requestId: caller.requestId,
        language: caller.language,
        body: text,
      }),
    );
    if (answer.status < 200 || answer.status > 299) return { ok: false, answer };
    return { ok: true, value: (answer.body as { data: T }).data };
  }
}
