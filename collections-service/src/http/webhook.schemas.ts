/** Request bodies of the webhook routes (docs/governance.md "Signed webhooks"). joi refuses unknown fields by default. */
import Joi from 'joi';
import { displayText, pageQueryFields, type PageRequest } from '@skills/common';
import { WEBHOOK_EVENTS, type WebhookInput, type WebhookPatch } from '../webhooks/webhook.model';

const url = Joi.string().trim().max(2000);
const events = Joi.array()
  .items(Joi.string().valid(...WEBHOOK_EVENTS))
  .min(1)
  .max(WEBHOOK_EVENTS.length * 2);
const description = displayText().allow('').max(500);

export const newWebhookSchema = Joi.object<WebhookInput>({
  url: url.required(),
  events: events.required(),
  description,
}).required();

export const webhookPatchSchema = Joi.object<WebhookPatch>({ url, events, description, enabled: Joi.boolean() })
  .min(1)
  .required();

export const deliveriesQuerySchema = Joi.object<PageRequest>(pageQueryFields);
