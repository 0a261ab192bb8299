/** Helpers of the profile suites: a browser-like agent (cookie jar) that signs up or in, and its CSRF token. */
import request from 'supertest';
import type { Harness } from './harness';

export const PASSWORD = 'tangerine-walrus-47-kettle';

export interface Browser {
  agent: ReturnType<typeof request.agent>;
  origin: string;
  csrf: string;
  accountId: string;
  email: string;
}

let emails = 0;

/** The first log line matching `test`, polling for 10 s at most: work done after an answer logs when it is done. */
export async function waitForLog(
  h: Harness,
  test: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i += 1) {
    const line = h.logged.find(test);
    if (line) return line;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no such log line within 10 s');
}

/** The verification token the gateway logs (no SMTP, plain loopback) once it has stored a sign-up of `email`. */
export async function loggedVerificationToken(h: Harness, email: string): Promise<string> {
  const line = await waitForLog(
    h,
    (l) => l.email === email && typeof l.link === 'string' && l.link.includes('/console/verify#token='),
  );
  return String(line.link).split('#token=')[1] as string;
}

/** Signs a new account up from the gateway's own origin, as the console does, and opens the verification link with the password (which signs in). */
export async function signUp(h: Harness, overrides: { email?: string; password?: string } = {}): Promise<Browser> {
  emails += 1;
  const email = overrides.email ?? `person${emails}-${Date.now()}@example.com`;
  const origin = h.gateway.url;
  const agent = request.agent(origin);
  const password = overrides.password ?? PASSWORD;
  const res = await agent.post('/api/v1/auth/sign-up').set('Origin', origin).send({ email, password, name: 'Ana' });
  if (res.status !== 202) throw new Error(`sign-up: ${res.status} ${JSON.stringify(res.body)}`);
  const token = await loggedVerificationToken(h, email);
  const verified = await agent.post('/api/v1/auth/verify-email').set('Origin', origin).send({ token, password });
  if (verified.status !== 200) throw new Error(`verify-email: ${verified.status} ${JSON.stringify(verified.body)}`);
  return { agent, origin, csrf: verified.body.data.csrfToken, accountId: verified.body.data.account.id, email };
}

/** Signs an existing account in, in a new cookie jar (another browser). */
export async function signIn(h: Harness, email: string, password = PASSWORD): Promise<Browser> {
  const origin = h.gateway.url;
  const agent = request.agent(origin);
  const res = await agent.post('/api/v1/auth/sign-in').set('Origin', origin).send({ email, password });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${JSON.stringify(res.body)}`);
  return { agent, origin, csrf: res.body.data.csrfToken, accountId: res.body.data.account.id, email };
}

/** A state-changing call of the console: its Origin and CSRF token. */
export function write(b: Browser, method: 'post' | 'patch' | 'delete', path: string, body?: object) {
  const test = b.agent[method](path).set('Origin', b.origin).set('X-CSRF-Token', b.csrf);
  return body === undefined ? test : test.send(body);
}
