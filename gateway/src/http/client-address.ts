/**
 * The client's address, as the failure budget counts it: express's `req.ip`,
 * which is the socket's peer unless TRUST_PROXY names the proxies in front
 * of the gateway (then the address they forwarded in X-Forwarded-For; see
 * docs/gateway.md "Client address"). Never read X-Forwarded-For directly:
 * any client can send one.
 */
import type { Request } from 'express';
import { RateLimitError } from '@skills/common';
import type { AuthFailureGuard } from '../domain/limits/auth-failure-guard';

export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** 429 (with Retry-After) while `address` is over its failed-authentication budget. */
export async function refuseWhileBlocked(guard: AuthFailureGuard, address: string): Promise<void> {
  const seconds = await guard.blockedFor(address);
  if (seconds !== undefined) {
    throw new RateLimitError('auth.tooManyFailures', seconds);
  }
}
