/** The bodies of the password routes (password.routes.ts). */
import Joi from 'joi';
import { PASSWORD_MAX_LENGTH } from '../../domain/sign-in/password-policy';

const password = Joi.string().min(1).max(PASSWORD_MAX_LENGTH).required();
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
