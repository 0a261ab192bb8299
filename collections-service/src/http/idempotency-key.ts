/**
 * The HTTP side of Idempotency-Key: the key is checked (1..255 visible ASCII
 * characters), the body hashed in a canonical form (key order and spacing do
 * not make two bodies different) and a replayed answer marked.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { InputError } from '@skills/common';
import type { IdempotencyRequest, IdempotentOutcome } from '../domain/idempotency';

const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The idempotency scope of this request, or undefined when it has no Idempotency-Key. */
export function idempotencyRequestOf(req: Request, accountId: string): IdempotencyRequest | undefined {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!VISIBLE_ASCII.test(key)) throw new InputError('idempotency.invalidKey', { max: 255 });
  return {
    accountId,
    route: `${req.method} ${req.path}`,
    key,
    requestHash: createHash('sha256')
      .update(canonical(req.body ?? {}))
      .digest('hex'),
  };
}

export function sendOutcome(res: Response, outcome: IdempotentOutcome): void {
  if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.status(outcome.response.status).json(outcome.response.body);
}
