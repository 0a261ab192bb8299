import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { SkillsAdminClient } from '@skills/client';
import {
  FollowStoppedError,
  ReindexFailedError,
  followReindex,
  type ReindexJob,
} from '../../../src/cli/follow-reindex';

const TOKEN = 'admin-token-for-the-cli-tests';
const JOB_ID = '0b7e6c1a-3f2d-4c8e-9a51-2d6f0e4b7a10';
const STARTED_AT = '2026-11-20T10:00:00.000Z';
const FINISHED_AT = '2026-11-20T10:00:09.000Z';

const running = (indexed: number, total?: number): ReindexJob => ({
  id: JOB_ID,
  status: 'running',
  indexed,
  ...(total === undefined ? {} : { total }),
  startedAt: STARTED_AT,
});
const ended = (job: ReindexJob, status: 'succeeded' | 'failed', error?: string): ReindexJob => ({
  ...job,
  status,
  finishedAt: FINISHED_AT,
  ...(error === undefined ? {} : { error }),
});

/** One answer of the fake API; `drop` closes the connection, `hang` never answers. */
type Answer = { status: number; body: unknown } | 'drop' | 'hang';
const ok = (job: ReindexJob): Answer => ({ status: 200, body: { data: { job } } });
const unavailable: Answer = { status: 503, body: { error: 'Service unavailable' } };

let server: Server;

/**
 * Plays the gateway's /admin/v1/reindex: POST gives `start`, each GET of the
 * job takes the next of `polls` (the last one repeats), any other job is 404.
 */
async function reindexApi(polls: Answer[], start: Answer = { status: 202, body: { data: { job: running(0) } } }) {
  const seen: string[] = [];
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    let answer: Answer | undefined;
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      answer = { status: 401, body: { error: 'Missing or invalid token' } };
    else if (req.method === 'POST' && req.url === '/admin/v1/reindex') answer = start;
    else if (req.method === 'GET' && req.url === `/admin/v1/reindex/${JOB_ID}`)
      answer = polls.length > 1 ? polls.shift() : polls[0];
    answer ??= { status: 404, body: { error: 'Reindex job not found' } };
    if (answer === 'hang') return;
    if (answer === 'drop') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = new SkillsAdminClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    adminToken: TOKEN,
  });
  return { client, seen };
}

/** Stands in for stderr: collects what the progress bar draws. */
function progressStream(tty = false) {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  });
  if (tty) Object.assign(stream, { isTTY: true, columns: 120 });
  return { stream, drawn: () => text };
}

afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

describe('followReindex', () => {
  it('starts a job and follows it until it succeeds, drawing the count of items indexed', async () => {
    const api = await reindexApi([ok(running(500)), ok(ended(running(1200), 'succeeded'))]);
    const { stream, drawn } = progressStream();

    const job = await followReindex(api.client, undefined, { stream, intervalMs: 5 });

    // what `npm run admin -- reindex` prints on stdout: { job }
    expect(JSON.parse(JSON.stringify({ job }))).toEqual({
      job: { id: JOB_ID, status: 'succeeded', indexed: 1200, startedAt: STARTED_AT, finishedAt: FINISHED_AT },
    });
    expect(api.seen).toEqual([
      'POST /admin/v1/reindex',
      `GET /admin/v1/reindex/${JOB_ID}`,
      `GET /admin/v1/reindex/${JOB_ID}`,
    ]);
    expect(drawn()).toContain(`started reindex job ${JOB_ID}`);
    expect(drawn()).toMatch(/reindexing \| 0 items \| 0 items\/s/);
    expect(drawn()).toMatch(/reindexing \| 1200 items \| \d+ items\/s \| succeeded/);
  });

  it('follows a job given by id, with a bar and a percentage once the job knows its total', async () => {
    const api = await reindexApi([ok(running(250, 1000)), ok(ended(running(1000, 1000), 'succeeded'))]);
    const { stream, drawn } = progressStream(true);

    const job = await followReindex(api.client, JOB_ID, { stream, intervalMs: 5 });

    expect(job).toMatchObject({ id: JOB_ID, status: 'succeeded', indexed: 1000, total: 1000 });
    expect(api.seen.every((line) => line === `GET /admin/v1/reindex/${JOB_ID}`)).toBe(true);
    expect(drawn()).toContain('25% | 250/1000 items');
    expect(drawn()).toContain('] 100% | 1000/1000 items');
  });

  it('rejects with the reason of a failed job, after drawing how far it got', async () => {
    const reason = 'collections-service unreachable (ECONNREFUSED)';
    const api = await reindexApi([ok(running(300)), ok(ended(running(300), 'failed', reason))]);
    const { stream, drawn } = progressStream();

    const following = followReindex(api.client, undefined, { stream, intervalMs: 5 });

    await expect(following).rejects.toThrow(new ReindexFailedError(ended(running(300), 'failed', reason)));
    await expect(following).rejects.toThrow(`reindex failed: ${reason}`);
    expect(drawn()).toMatch(/reindexing \| 300 items .*\| failed/);
  });

  it('rides out a 503 and a dropped connection while the replicas restart, saying it retries', async () => {
    const api = await reindexApi([
      ok(running(100)),
      unavailable,
      'drop',
      ok(running(600)),
      ok(ended(running(1200), 'succeeded')),
    ]);
    const { stream, drawn } = progressStream(true);

    // real waits (150 ms, then 300 ms and 600 ms of backoff) so the terminal bar redraws meanwhile
    const job = await followReindex(api.client, JOB_ID, { stream, intervalMs: 150 });

    expect(job).toMatchObject({ status: 'succeeded', indexed: 1200 });
    expect(api.seen).toHaveLength(5);
    expect(drawn()).toContain('retrying: Service unavailable');
    expect(drawn()).toMatch(/retrying: cannot reach http:\/\/127\.0\.0\.1:\d+/);
  });

  it("gives up after the retries, backing off, with the gateway's message and the job id", async () => {
    const api = await reindexApi([unavailable]);
    const { stream, drawn } = progressStream();
    const waits: number[] = [];
    const sleep = async (ms: number) => {
      waits.push(ms);
    };

    const following = followReindex(api.client, undefined, { stream, intervalMs: 100, retries: 2, sleep });

    await expect(following).rejects.toMatchObject({ name: 'ApiError', status: 503 });
    await expect(following).rejects.toThrow(/^Service unavailable \(gave up after 3 tries; .*reindex 0b7e6c1a-/);
    // one poll interval, then each retry waits longer than the one before
    expect(waits).toEqual([100, 200, 400]);
    expect(drawn()).toContain('reindexing | 0 items');
  });

  it("stops at the first 404 with the API's message", async () => {
    const api = await reindexApi([ok(running(0))]);
    const { stream } = progressStream();

    const following = followReindex(api.client, 'no-such-job', { stream, intervalMs: 5 });

    await expect(following).rejects.toMatchObject({ name: 'ApiError', status: 404, message: 'Reindex job not found' });
    expect(api.seen).toEqual(['GET /admin/v1/reindex/no-such-job']);
  });

  it('passes on a refused start (409 while another job runs) without polling', async () => {
    const busy = 'A reindex is already running (job 5d1f0c2b-8a3e-4b7d-9c60-1e2f3a4b5c6d)';
    const api = await reindexApi([ok(running(0))], { status: 409, body: { error: busy } });

    const following = followReindex(api.client, undefined, { stream: progressStream().stream, intervalMs: 5 });

    await expect(following).rejects.toMatchObject({ name: 'ApiError', status: 409, message: busy });
    expect(api.seen).toEqual(['POST /admin/v1/reindex']);
  });

  it('stops following on Ctrl-C between polls, saying the job keeps running and how to follow it again', async () => {
    const api = await reindexApi([ok(running(400))]);
    const ctrlC = new AbortController();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      if (api.seen.length === 2) ctrlC.abort();
      if (signal?.aborted) throw new Error('aborted');
      await new Promise((resolve) => setTimeout(resolve, ms));
    };

    const following = followReindex(api.client, undefined, {
      stream: progressStream().stream,
      intervalMs: 5,
      sleep,
      signal: ctrlC.signal,
    });

    await expect(following).rejects.toThrow(new FollowStoppedError(JOB_ID));
    await expect(following).rejects.toThrow(
      `reindex job ${JOB_ID}; the job keeps running on the server. Follow it again with: npm run admin -- reindex ${JOB_ID}`,
    );
    expect(api.seen).toEqual(['POST /admin/v1/reindex', `GET /admin/v1/reindex/${JOB_ID}`]);
  });

  it('stops following on Ctrl-C without waiting for a poll the gateway does not answer', async () => {
    const api = await reindexApi(['hang']);
    const ctrlC = new AbortController();
    const { stream } = progressStream();

    const following = followReindex(api.client, JOB_ID, { stream, intervalMs: 5, signal: ctrlC.signal });
    setTimeout(() => ctrlC.abort(), 50);

    await expect(following).rejects.toBeInstanceOf(FollowStoppedError);
  });
});
