/** One load phase with autocannon: a warm-up (discarded), then the measured run. */
import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { ClassRecorder } from './class-stats';
import type { LoadResult } from './stats';

export interface RequestSpec {
  method: 'GET' | 'PATCH' | 'PUT' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** the request's class (e.g. "typo"): its latency is also reported per class */
  tag?: string;
}

/** One step of a connection's request loop; autocannon clears `context` each time the loop restarts. */
export interface PhaseRequest {
  setup(context: Record<string, unknown>): RequestSpec;
  /** `headers`: the answer's headers, named as the server spelt them (autocannon keeps the raw case) */
  onResponse?(status: number, context: Record<string, unknown>, headers: IncomingHttpHeaders): void;
}

export interface Phase {
  scenario: string;
  /** origin, e.g. http://127.0.0.1:8080 */
  url: string;
  requests: PhaseRequest[];
  /**
   * The classes its requests are tagged with (RequestSpec.tag), in report
   * order. Only a phase with classes is timed per request: the callback
   * costs autocannon a little per response, which the baseline should not pay.
   */
  classes?: readonly string[];
}

/** Context keys of the per-class timing; autocannon hands the same context to setupRequest and onResponse. */
const STARTED = '__benchStarted';
const TAG = '__benchTag';

export interface LoadOptions {
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** progress line sink (a TTY line is rewritten) */
  progress(text: string, done: boolean): void;
  /** called between the warm-up and the measured run (e.g. to read CPU counters) */
  beforeRun?(): Promise<void>;
}

function once(
  phase: Phase,
  connections: number,
  durationSec: number,
  recorder: ClassRecorder,
  onTick?: (second: number, reqs: number) => void,
): Promise<autocannon.Result> {
  const timed = phase.classes !== undefined;
  let finish: (err: unknown, result: autocannon.Result) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = (err, result) => (err ? reject(err) : resolve(result));
  });
  // The callback form returns the instance, whose 'tick' events drive the progress line.
  const instance = autocannon(
    {
      url: phase.url,
      connections,
      duration: durationSec,
      pipelining: 1,
      timeout: 10,
      requests: phase.requests.map((step) => ({
        setupRequest: (req: autocannon.Request, context: object) => {
          const ctx = context as Record<string, unknown>;
          const spec = step.setup(ctx);
          if (timed) {
            // autocannon builds a connection's next request just before writing it (pipelining 1): start the clock here
            ctx[TAG] = spec.tag;
            ctx[STARTED] = performance.now();
          }
          return { ...req, method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
        },
        onResponse:
          timed || step.onResponse
            ? (status: number, _body: string, context: object, headers: IncomingHttpHeaders | undefined) => {
                const ctx = context as Record<string, unknown>;
                if (timed && typeof ctx[TAG] === 'string')
                  recorder.record(ctx[TAG], performance.now() - (ctx[STARTED] as number), status);
                step.onResponse?.(status, ctx, headers ?? {});
              }
            : undefined,
      })),
    },
    (err, result) => finish(err, result),
  );
  let second = 0;
  // autocannon passes the second's counters to 'tick'; its typings declare no argument.
  const onTickEvent = (counter: { counter: number }) => {
    second += 1;
    onTick?.(second, counter.counter);
  };
  instance.on('tick', onTickEvent as unknown as () => void);
  return done;
}

/** Which of a phase's two runs `make` builds: a seeded mix draws other queries for each. */
export type RunPart = 'warm-up' | 'run';

/**
 * `make` builds a fresh phase for the warm-up and another for the run, so no
 * state carries over (and the warm-up's class latencies are dropped with it).
 */
export async function runLoad(make: (part: RunPart) => Phase, options: LoadOptions): Promise<LoadResult> {
  const phase = make('run');
  const label = `${phase.scenario} @ ${options.connections} conn`;
  if (options.warmupSec > 0) {
    options.progress(`${label}: warm-up ${options.warmupSec} s`, false);
    await once(make('warm-up'), options.connections, options.warmupSec, new ClassRecorder());
  }
  await options.beforeRun?.();
  const recorder = new ClassRecorder();
  const result = await once(phase, options.connections, options.durationSec, recorder, (s, reqs) =>
    options.progress(`${label}: ${s}/${options.durationSec} s, ${reqs} req/s`, false),
  );
  // autocannon's `errors` already counts the timeouts (its README, "errors")
  const errors = result.errors + result.non2xx;
  // which answers the errors were: a 503 is shedding, a 4xx the mix's own mistake
  const failed = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stats]) => [code, stats.count ?? 0] as const)
    .filter(([code, count]) => !code.startsWith('2') && count > 0);
  const out: LoadResult = {
    scenario: phase.scenario,
    connections: options.connections,
    requestsPerSec: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors,
    noAnswer: result.errors,
    timeouts: result.timeouts,
    requests: result.requests.total,
    ...(failed.length > 0 ? { errorStatuses: Object.fromEntries(failed) } : {}),
  };
  const classes = recorder.summary(phase.classes);
  if (classes.length > 0) out.classes = classes;
  const statuses = failed.length > 0 ? ` (${failed.map(([code, count]) => `${count} × ${code}`).join(', ')})` : '';
  options.progress(
    `${label}: ${out.requestsPerSec.toFixed(0)} req/s, p50 ${out.p50Ms} ms, p99 ${out.p99Ms} ms, ${errors} errors${statuses}`,
    true,
  );
  return out;
}
