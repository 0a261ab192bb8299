/** callService: the retry rule of calls between services, against a scripted other service. */
import { UpstreamError, callService, type ServiceAnswer } from '../../src';

type Step = number | UpstreamError;

/** The other service: each try takes the next step (an answer's status, or a failure with no answer). */
function script(...steps: Step[]) {
  let tries = 0;
  const send = async (): Promise<ServiceAnswer> => {
    const step = steps[Math.min(tries, steps.length - 1)] as Step;
    tries += 1;
    if (step instanceof UpstreamError) throw step;
    return { status: step, headers: {}, body: { data: step } };
  };
  return { send, tries: () => tries };
}

const refused = () => new UpstreamError(503, 'upstream.unavailable');
const tooLate = () => new UpstreamError(504, 'upstream.timeout');
const rule = { attempts: 4, baseDelayMs: 100, maxDelayMs: 250 };

describe('callService', () => {
  it('asks a read again after no answer, a late one, a 502, 503 or 504, waiting longer each time up to the cap', async () => {
    const waits: number[] = [];
    const other = script(refused(), 502, tooLate(), 200);
    const answer = await callService(other.send, {
      method: 'GET',
      retry: rule,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(answer).toEqual({ status: 200, headers: {}, body: { data: 200 } });
    expect(other.tries()).toBe(4);
    expect(waits).toEqual([100, 200, 250]);
  });

  it('hands over the last answer or failure once its tries are spent', async () => {
    const shedding = script(503);
    await expect(
      callService(shedding.send, { method: 'GET', retry: rule, sleep: async () => {} }),
    ).resolves.toMatchObject({ status: 503 });
    expect(shedding.tries()).toBe(4);
    const down = script(refused());
    await expect(callService(down.send, { method: 'GET', retry: rule, sleep: async () => {} })).rejects.toMatchObject({
      status: 503,
    });
    expect(down.tries()).toBe(4);
  });

  it('takes any other answer as the answer: a 500, a 404, a 502 of its own for a body it could not read', async () => {
    for (const step of [500, 404, new UpstreamError(502, 'upstream.badGateway')]) {
      const other = script(step, 200);
      const outcome = await callService(other.send, { method: 'GET', retry: rule, sleep: async () => {} }).catch(
        (err: unknown) => err,
      );
      expect(outcome instanceof UpstreamError ? outcome.status : (outcome as ServiceAnswer).status).toBe(
        step instanceof UpstreamError ? 502 : step,
      );
      expect(other.tries()).toBe(1);
    }
  });

  it('never asks a write again: it may have been applied', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const other = script(503, 200);
      await expect(callService(other.send, { method, retry: rule, sleep: async () => {} })).resolves.toMatchObject({
        status: 503,
      });
      expect(other.tries()).toBe(1);
    }
  });

  it('stops asking once its signal is aborted', async () => {
    const shutdown = new AbortController();
    const other = script(503);
    const sleep = async () => shutdown.abort();
    await expect(
      callService(other.send, { method: 'GET', retry: rule, signal: shutdown.signal, sleep }),
    ).resolves.toMatchObject({ status: 503 });
    expect(other.tries()).toBe(2);
  });
});
