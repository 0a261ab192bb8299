/** The bodies of the workspace routes the gateway serves itself (workspaces.routes.ts). */
import Joi from 'joi';
import { emailAddress } from '@skills/common';
import { INVITABLE_ROLES } from '@skills/common/workspace-roles';
import type { InvitationRequest } from '../../domain/workspaces/workspace-invitations';

export const invitationSchema = Joi.object<InvitationRequest>({
  role: Joi.string()
    .valid(...INVITABLE_ROLES)
    .required(),
  email: emailAddress().allow(null).default(null),
  expiresInDays: Joi.number().integer().min(1).max(30).default(7),
}).required();
export const tokenSchema = Joi.object<{ token: string }>({ token: Joi.string().max(100).required() }).required();
