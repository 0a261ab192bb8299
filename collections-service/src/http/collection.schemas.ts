/** Request bodies of the collection routes (docs/collections.md). joi refuses unknown fields by default. */
import Joi from 'joi';
import { displayText, pageQueryFields, type PageRequest } from '@skills/common';
import type { CollectionPatch } from '../domain/model';
import type { TeamCollectionPatch } from '../domain/team-collection.service';

// NFC-normalised, bidi controls refused (displayText): a name shows as it reads.
const name = displayText().trim().min(1).max(120);
const description = displayText().allow('').max(2000);
// Slugs and ids in a body are looked up, not validated by shape: an unknown one is a 404 naming it.
const reference = Joi.string().min(1).max(200);

export interface CreateCollectionBody {
  name: string;
  description?: string;
}

export const createCollectionSchema = Joi.object<CreateCollectionBody>({
  name: name.required(),
  description,
}).required();

// A version is looked up like a slug (an unknown one is 404); it only means something with the slug it pins.
const teamPatchFields = {
  name,
  description,
  skillSlug: reference,
  removeSkillSlug: reference,
  version: Joi.string().min(1).max(64),
};

export const teamPatchSchema = Joi.object<TeamCollectionPatch>(teamPatchFields)
  .min(1)
  .with('version', 'skillSlug')
  .required();

export const personalPatchSchema = Joi.object<CollectionPatch>({
  ...teamPatchFields,
  privateSkillId: reference,
  removePrivateSkillId: reference,
})
  .min(1)
  .with('version', 'skillSlug')
  .required();

/** Query of the collection lists: `page` and `limit` as in search; anything else is refused, as there. */
export const listQuerySchema = Joi.object<PageRequest>(pageQueryFields);
