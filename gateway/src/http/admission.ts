/**
 * Admission control for the proxied routes: each process lets a bounded
 * number of requests per route class be in flight to the services and
 * answers the rest at once with 503 + Retry-After. Queueing instead would
 * only move the wait into the upstream pool, where every waiting request
 * adds to everyone's latency and its principal ages towards expiry; a
 * refused client retries, an admitted one is served at the services' speed.
 * The bounds stay at or under the upstream pool's connections, so an
 * admitted request never waits for a connection either.
 */
import { OverloadedError } from '@skills/common';
import type { UpstreamName } from './route-table';

/** Reads and writes of each service are admitted apart: a flood of searches does not starve collection writes. */
export type RouteClass = `${UpstreamName}:${'read' | 'write'}`;

/** Per service and process; the upstream pool gets reads + writes connections (server.ts). */
export interface AdmissionLimits {
  reads: number;
  writes: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { reads: 48, writes: 16 };

export function routeClassOf(upstream: UpstreamName, method: string): RouteClass {
  return `${upstream}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
}

export class AdmissionGate {
  private readonly inFlight: Record<RouteClass, number> = { 'catalog:read': 0, 'catalog:write': 0, 'collections:read': 0, 'collections:write': 0 };
  private shedCount = 0;

  constructor(
    private readonly limits: AdmissionLimits = DEFAULT_ADMISSION,
    private readonly retryAfterSeconds = 1,
  ) {}

  /**
   * Runs `work` once a place of `routeClass` is free now, or throws
   * OverloadedError without waiting. The place is held until `work` settles.
   */
  async run<T>(routeClass: RouteClass, work: () => Promise<T>): Promise<T> {
    const limit = routeClass.endsWith(':read') ? this.limits.reads : this.limits.writes;
    if (this.inFlight[routeClass] >= limit) {
      this.shedCount += 1;
      throw new OverloadedError(this.retryAfterSeconds);
    }
    this.inFlight[routeClass] += 1;
    try {
      return await work();
    } finally {
      this.inFlight[routeClass] -= 1;
    }
  }

  /** Requests of `routeClass` in flight now, and how many were shed since start (for metrics). */
  stats(routeClass: RouteClass): { inFlight: number; shed: number } {
    return { inFlight: this.inFlight[routeClass], shed: this.shedCount };
  }
}
