/**
 * What the overload run (`npm run bench -- --overload`) judges, kept pure so a
 * unit test crosses each target: answers counted by status, the latency of
 * admitted searches (a 2xx) apart from the refusals, and every 503 checked
 * for its Retry-After.
 */
import { percentile } from './stats';
import type { Target } from './stats';

/** The targets for 1,000 connections of searches with valid keys. */
export const OVERLOAD_TARGETS = { admittedP99Ms: 500 } as const;

export interface OverloadSummary {
  answers: number;
  /** answers by status code */
  statuses: Record<string, number>;
  admitted: number;
  admittedP50Ms: number;
  admittedP99Ms: number;
  /** 503s that came without a usable Retry-After */
  shedWithoutRetryAfter: number;
  /** connection errors and client timeouts (no answer at all) */
  noAnswer: number;
  answersPerSec: number;
  admittedPerSec: number;
}

/** Collects one run's answers; autocannon hands each response's status and headers to `record`. */
export class OverloadRecorder {
  private readonly statuses = new Map<number, number>();
  private readonly admittedMs: number[] = [];
  private shedWithoutRetryAfter = 0;

  record(status: number, ms: number, retryAfter: string | undefined): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (status >= 200 && status < 300) this.admittedMs.push(ms);
    if (status === 503 && !(Number(retryAfter) >= 1)) this.shedWithoutRetryAfter += 1;
  }

  summary(seconds: number, noAnswer: number): OverloadSummary {
    const answers = [...this.statuses.values()].reduce((n, c) => n + c, 0);
    const statuses = Object.fromEntries(
      [...this.statuses.entries()].sort(([a], [b]) => a - b).map(([s, c]) => [String(s), c]),
    );
    return {
      answers,
      statuses,
      admitted: this.admittedMs.length,
      admittedP50Ms: percentile(this.admittedMs, 50),
      admittedP99Ms: percentile(this.admittedMs, 99),
      shedWithoutRetryAfter: this.shedWithoutRetryAfter,
      noAnswer,
      answersPerSec: answers / seconds,
      admittedPerSec: this.admittedMs.length / seconds,
    };
  }
}

const count = (s: OverloadSummary, pick: (status: number) => boolean): number =>
  Object.entries(s.statuses).reduce((n, [status, c]) => (pick(Number(status)) ? n + c : n), 0);

/** Zero 401s to valid keys, no 5xx but 503, p99 of admitted searches ≤ 500 ms, every 503 with Retry-After, every request answered. */
export function overloadTargets(s: OverloadSummary): Target[] {
  const unauthorized = count(s, (status) => status === 401);
  const otherServerErrors = count(s, (status) => status >= 500 && status !== 503);
  return [
    { name: 'no 401 to a valid key', ok: unauthorized === 0, measured: `${unauthorized} × 401` },
    { name: 'no 5xx other than 503', ok: otherServerErrors === 0, measured: `${otherServerErrors}` },
    {
      name: `p99 of admitted searches ≤ ${OVERLOAD_TARGETS.admittedP99Ms} ms`,
      ok: s.admitted > 0 && s.admittedP99Ms <= OVERLOAD_TARGETS.admittedP99Ms,
      measured: `${s.admittedP99Ms.toFixed(0)} ms over ${s.admitted} answers`,
    },
    {
      name: 'every 503 with Retry-After',
      ok: s.shedWithoutRetryAfter === 0,
      measured: `${s.shedWithoutRetryAfter} without of ${count(s, (status) => status === 503)}`,
    },
    {
      name: 'every request answered (no timeout, no connection error)',
      ok: s.noAnswer === 0,
      measured: `${s.noAnswer} without an answer`,
    },
  ];
}

/** One client's searches, in a loop, while something else runs: how many, how fast, how many failed. */
export interface SearchLoop {
  searches: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/** A sign-up flood must not slow the searches of the people already signed in past this. */
export const FLOOD_TARGETS = { searchP99Ms: 1_000 } as const;

/** While `flood` runs: every search answered, p99 ≤ 1 s. */
export function floodTargets(flood: string, during: SearchLoop): Target[] {
  return [
    {
      name: `${flood}: no search failed`,
      ok: during.searches > 0 && during.errors === 0,
      measured: `${during.errors} of ${during.searches}`,
    },
    {
      name: `${flood}: search p99 ≤ ${FLOOD_TARGETS.searchP99Ms} ms`,
      ok: during.searches > 0 && during.p99Ms <= FLOOD_TARGETS.searchP99Ms,
      measured: `${during.p99Ms.toFixed(0)} ms over ${during.searches} searches`,
    },
  ];
}

/** The status table: one row per status code, its count and share. */
export function formatStatuses(s: OverloadSummary): string {
  const rows = Object.entries(s.statuses).map(([status, c]) => [
    status,
    c.toLocaleString('en'),
    `${((c / Math.max(1, s.answers)) * 100).toFixed(1)} %`,
  ]);
  rows.push(['no answer', s.noAnswer.toLocaleString('en'), '']);
  return [
    'status   answers   share',
    ...rows.map(([a, b, c]) => `${(a as string).padEnd(9)}${(b as string).padStart(7)}   ${c as string}`),
  ].join('\n');
}
