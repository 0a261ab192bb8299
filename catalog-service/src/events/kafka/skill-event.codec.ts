import Joi from 'joi';
import type { SkillChangeEvent } from '@skills/common';

/** What a Kafka message turned out to hold: an event, or why it cannot be one. */
export type Decoded = { ok: true; event: SkillChangeEvent } | { ok: false; reason: string };

const item = Joi.object({
  id: Joi.string().required(),
  slug: Joi.string().allow(null).required(),
  name: Joi.string().allow('').required(),
  description: Joi.string().allow('').required(),
  type: Joi.string().valid('skill', 'plugin').required(),
  category: Joi.string().allow(null).required(),
  tags: Joi.array().items(Joi.string()).required(),
  status: Joi.string().valid('active', 'draft', 'archived', 'deleted').required(),
  visibility: Joi.string().valid('public', 'private').required(),
  updatedAt: Joi.string().isoDate().required(),
  version: Joi.number().integer().min(0).required(),
}).unknown(true);

/**
 * The shape of a SkillChangeEvent as it travels. Unknown fields are kept so a
 * newer producer can add fields without sending older consumers' events to
 * the dead-letter topic; what the indexer relies on must be present.
 */
const event = Joi.object({
  eventId: Joi.string().required(),
  type: Joi.string().valid('skill.upserted', 'skill.deleted').required(),
  itemId: Joi.string().required(),
  version: Joi.number().integer().min(0).required(),
  occurredAt: Joi.string().isoDate().required(),
  item: item.required(),
})
  .unknown(true)
  .custom((value: SkillChangeEvent, helpers) =>
    value.item.id === value.itemId && value.item.version === value.version ? value : helpers.error('any.invalid'),
  )
  .messages({ 'any.invalid': 'item.id and item.version must match itemId and version' });

/** Decodes a message value; never throws, so one bad message cannot stall a partition. */
export function decodeSkillEvent(value: Buffer | null): Decoded {
  if (value === null) return { ok: false, reason: 'empty message value' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
  const { error, value: checked } = event.validate(parsed, { abortEarly: true, convert: false });
  if (error) return { ok: false, reason: `not a skill-change event: ${error.message}` };
  return { ok: true, event: checked as SkillChangeEvent };
}

