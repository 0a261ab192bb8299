import { checkSkillChangeEvent, type SkillChangeEvent } from '@skills/common';

/** What a Kafka message turned out to hold: an event of the contract, or why it is none (and what it held, if JSON). */
export type Decoded =
  | { ok: true; event: SkillChangeEvent }
  | { ok: false; reason: 'unparseable' | 'contract'; detail: string; parsed?: unknown };

/** Decodes a message value against the event contract; never throws, so one bad message cannot stall a partition. */
export function decodeSkillEvent(value: Buffer | null): Decoded {
  if (value === null) return { ok: false, reason: 'unparseable', detail: 'empty message value' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (err) {
    return { ok: false, reason: 'unparseable', detail: `not JSON: ${(err as Error).message}` };
  }
  const check = checkSkillChangeEvent(parsed);
  return check.ok ? check : { ok: false, reason: 'contract', detail: check.reason, parsed };
}
