/** The body of the operator's link route (admin-accounts.routes.ts). */
import Joi from 'joi';

export const adminLinkSchema = Joi.object<{ purpose: 'sign-in' | 'password-reset' }>({
  purpose: Joi.string().valid('sign-in', 'password-reset').required(),
});
