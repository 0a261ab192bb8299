/** Request bodies of the self-service workspace routes (docs/collections.md). joi refuses unknown fields by default. */
import Joi from 'joi';
import { displayText, emailAddress } from '@skills/common';
import { INVITABLE_ROLES, WORKSPACE_ROLES, type WorkspaceRole } from '@skills/common/workspace-roles';
import type { InvitationInput } from '../domain/invitation.service';

export const newWorkspaceSchema = Joi.object<{ name: string }>({
  name: displayText().trim().min(1).max(120).required(),
}).required();

export const roleSchema = Joi.object<{ role: WorkspaceRole }>({
  role: Joi.string()
    .valid(...WORKSPACE_ROLES)
    .required(),
}).required();

/**
 * What the gateway sends when a person invites: the role, the address it
 * mails the link to (if any) and when its link expires. The link itself
 * never reaches this service.
 */
export const invitationSchema = Joi.object<InvitationInput>({
  role: Joi.string()
    .valid(...INVITABLE_ROLES)
    .required(),
  email: emailAddress().allow(null).default(null),
  expiresAt: Joi.date().iso().greater('now').required(),
}).required();
