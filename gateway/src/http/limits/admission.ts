/**
 * Admission control for the proxied routes: each process lets a bounded
 * number of requests per route class be in flight to the services, lets as
 * many more wait for a place, first come first served, for at most
 * `maxWaitMs`, and answers the rest at once with 503 + Retry-After. The
 * short queue absorbs a burst a little above the bound (64 connections
 * against 48 places were 16 refusals a moment, all of them needless), and
 * its bounds keep a flood from turning into seconds of waiting: a refused
 * client retries, an admitted one is served at the services' speed. A
 * principal is signed only once a place is had, so waiting never ages it.
 * The bounds stay at or under the upstream pool's connections, so an
 * admitted request never waits for a connection either.
 */
import { OverloadedError } from '@skills/common';
import type { UpstreamName } from '../proxy/route-table';

/** Reads and writes of each service are admitted apart: a flood of searches does not starve collection writes. */
export type RouteClass = `${UpstreamName}:${'read' | 'write'}`;

/** Per service and process; the upstream pool gets reads + writes connections (server.ts). */
export interface AdmissionLimits {
  /** places in flight; as many again may wait */
  reads: number;
  writes: number;
  /** the longest a request waits for a place before its 503 */
  maxWaitMs?: number;
}

export const DEFAULT_ADMISSION: AdmissionLimits = { reads: 48, writes: 16 };
/** About two searches' time under load: a place held longer than that is a queue that is not draining. */
export const DEFAULT_MAX_WAIT_MS = 250;

interface Waiter {
  admit(): void;
  timer: NodeJS.Timeout;
}

const ROUTE_CLASSES: readonly RouteClass[] = ['catalog:read', 'catalog:write', 'collections:read', 'collections:write'];

export function routeClassOf(upstream: UpstreamName, method: string): RouteClass {
  return `${upstream}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
}

export class AdmissionGate {
  private readonly inFlight: Record<RouteClass, number> = {
    'catalog:read': 0,
    'catalog:write': 0,
    'collections:read': 0,
    'collections:write': 0,
  };
  private readonly waiting: Record<RouteClass, Waiter[]> = {
    'catalog:read': [],
    'catalog:write': [],
    'collections:read': [],
    'collections:write': [],
  };
  private readonly shedCount: Record<RouteClass, number> = {
    'catalog:read': 0,
    'catalog:write': 0,
    'collections:read': 0,
    'collections:write': 0,
  };

  constructor(
    private readonly limits: AdmissionLimits = DEFAULT_ADMISSION,
    private readonly retryAfterSeconds = 1,
  ) {}

  /**
   * Runs `work` once a place of `routeClass` is free, waiting in line for
   * one when the line is not full, or throws OverloadedError. The place is
   * held until `work` settles, then handed to the first in line.
   */
  async run<T>(routeClass: RouteClass, work: () => Promise<T>): Promise<T> {
    await this.place(routeClass);
    try {
      return await work();
    } finally {
      this.release(routeClass);
    }
  }

  private place(routeClass: RouteClass): Promise<void> | void {
    const limit = this.limitOf(routeClass);
    if (this.inFlight[routeClass] < limit) {
      this.inFlight[routeClass] += 1;
      return;
    }
    const line = this.waiting[routeClass];
    if (line.length >= limit) return this.shed(routeClass);
    return new Promise<void>((admit, refuse) => {
      const waiter: Waiter = {
        admit,
        timer: setTimeout(() => {
          line.splice(line.indexOf(waiter), 1);
          try {
            this.shed(routeClass);
          } catch (err) {
            refuse(err);
          }
        }, this.limits.maxWaitMs ?? DEFAULT_MAX_WAIT_MS),
      };
      line.push(waiter);
    });
  }

  /** The place goes to the first in line (still counted in flight), or is freed. */
  private release(routeClass: RouteClass): void {
    const next = this.waiting[routeClass].shift();
    if (next) {
      clearTimeout(next.timer);
      next.admit();
    } else {
      this.inFlight[routeClass] -= 1;
    }
  }

  private shed(routeClass: RouteClass): never {
    throw this.refusal(routeClass);
  }

  /** True when every place of `routeClass` is taken and its line is full: run() would refuse a request now. */
  full(routeClass: RouteClass): boolean {
    const limit = this.limitOf(routeClass);
    return this.inFlight[routeClass] >= limit && this.waiting[routeClass].length >= limit;
  }

  /** True when some class is full (rarely): only then does a request's class matter before it is admitted. */
  anyFull(): boolean {
    return ROUTE_CLASSES.some((routeClass) => this.full(routeClass));
  }

  private limitOf(routeClass: RouteClass): number {
    return routeClass.endsWith(':read') ? this.limits.reads : this.limits.writes;
  }

  /** The 503 of a request of `routeClass` refused for want of a place, counted as shed. */
  refusal(routeClass: RouteClass): OverloadedError {
    this.shedCount[routeClass] += 1;
    return new OverloadedError(this.retryAfterSeconds);
  }

  /** Per route class: requests in flight and waiting now, and how many were shed since start (the gateway's metrics). */
  stats(): Array<{ routeClass: RouteClass; inFlight: number; waiting: number; shed: number }> {
    return (Object.keys(this.inFlight) as RouteClass[]).map((routeClass) => ({
      routeClass,
      inFlight: this.inFlight[routeClass],
      waiting: this.waiting[routeClass].length,
      shed: this.shedCount[routeClass],
    }));
  }
}
