/**
 * A service sheds new requests while its event loop is late: past that
 * point every admitted request only adds to everyone's wait (and ages the
 * gateway's principal towards expiry), while a 503 with Retry-After is an
 * answer the gateway passes on at once. The gateway bounds what it sends
 * (admission.ts), but several gateway replicas, or the work a service does
 * on its own (an import's indexing), can still overload one process.
 *
 * The delay is Node's own measure (`perf_hooks.monitorEventLoopDelay`): its
 * 99th percentile over each window decides the next window, so shedding
 * starts within one window of the loop falling behind and stops within one
 * window of it catching up. Probes and metrics always answer.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { OverloadedError } from '../errors';

export interface EventLoopShedding {
  /** shed while the loop's delay (99th percentile of the last window) is above this; 0: never */
  maxDelayMs: number;
  windowMs?: number;
}

const DEFAULT_SHED_WINDOW_MS = 500;

const ALWAYS_ANSWERED = /^\/(healthz|readyz|metrics)(\/|$)/;

export class EventLoopDelayWatch {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly timer: NodeJS.Timeout;
  private late = false;

  constructor(private readonly options: EventLoopShedding) {
    this.histogram.enable();
    this.timer = setInterval(() => this.judge(), options.windowMs ?? DEFAULT_SHED_WINDOW_MS);
    // a watch never keeps a process alive
    this.timer.unref();
  }

  /** Whether the last window's delay was over the bound. */
  get overloaded(): boolean {
    return this.late;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private judge(): void {
    // percentiles are in nanoseconds
    this.late = this.histogram.count > 0 && this.histogram.percentile(99) / 1e6 > this.options.maxDelayMs;
    this.histogram.reset();
  }
}

/** 503 + Retry-After for every request but probes and metrics while the watch finds the loop late. */
export function shedWhileLate(watch: Pick<EventLoopDelayWatch, 'overloaded'>): RequestHandler {
  return (req, _res, next) => {
    if (watch.overloaded && !ALWAYS_ANSWERED.test(req.path)) return next(new OverloadedError(1));
    next();
  };
}
