/** The bodies of the admin account routes (admin.routes.ts). */
import Joi from 'joi';
import { displayText, emailAddress, type Plan } from '@skills/common';
import { ACCOUNT_NAME_MAX, PLANS } from '../../domain/accounts/account';

const plan = Joi.string().valid(...PLANS);
export const createAccountSchema = Joi.object<{ email: string; name?: string | null; plan: Plan }>({
  email: emailAddress().required(),
  name: displayText().trim().min(1).max(ACCOUNT_NAME_MAX).allow(null),
  plan: plan.required(),
});
export const changePlanSchema = Joi.object<{ plan: Plan }>({ plan: plan.required() });
