/** The bodies of the sign-in routes (auth.routes.ts). joi refuses unknown fields by default. */
import Joi from 'joi';
import { displayText, emailAddress } from '@skills/common';
import { ACCOUNT_NAME_MAX } from '../../domain/accounts/account';
import { PASSWORD_MAX_LENGTH } from '../../domain/sign-in/password-policy';

const email = emailAddress().required();
// The policy's minimum is checked by checkPassword, with its own message; this only bounds the size.
export const password = Joi.string().min(1).max(PASSWORD_MAX_LENGTH).required();
const token = Joi.string().max(100).required();
export const signUpSchema = Joi.object<{ email: string; password: string; name?: string; invitation?: string }>({
  email,
  password,
  name: displayText().trim().min(1).max(ACCOUNT_NAME_MAX),
  invitation: Joi.string().max(100),
});
export const signInSchema = Joi.object<{ email: string; password: string }>({ email, password });
export const linkSchema = Joi.object<{ token: string }>({ token });
// The password is the verification's to judge (after the link): a dead link says so, whatever is typed.
export const verifySchema = Joi.object<{ token: string; password?: string }>({
  token,
  password: Joi.string().max(PASSWORD_MAX_LENGTH),
});
export const resetSchema = Joi.object<{
  token: string;
  password: string;
  revokeApiKeys: boolean;
  unlinkIdentities: boolean;
}>({
  token,
  password,
  revokeApiKeys: Joi.boolean().default(false),
  unlinkIdentities: Joi.boolean().default(false),
});
export const resetRequestSchema = Joi.object<{ email: string }>({ email });
