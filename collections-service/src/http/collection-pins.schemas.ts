/** The body of a pins update (collection-pins.routes.ts). */
import Joi from 'joi';
import type { PinsUpdateRequest } from '../domain/collection-pins.service';

export const pinsUpdateSchema = Joi.object<PinsUpdateRequest>({
  dryRun: Joi.boolean().strict().default(false),
  slugs: Joi.array().items(Joi.string().min(1).max(200)).max(1000).unique(),
}).required();
