/** The bodies of the password routes (password.routes.ts). */
import Joi from 'joi';
import { password } from './auth.schemas';

export const changePasswordSchema = Joi.object<{
  currentPassword: string;
  newPassword: string;
  revokeApiKeys: boolean;
}>({
  currentPassword: password,
  newPassword: password,
  revokeApiKeys: Joi.boolean().default(false),
});
export const reauthSchema = Joi.object<{ password: string }>({ password });
