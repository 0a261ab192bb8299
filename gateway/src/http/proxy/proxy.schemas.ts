/** What the proxy itself reads of a request before forwarding it: the rest is the service's to validate. */
import Joi from 'joi';

/** `workspace=` once, as a string: a list would leave which one applies to the reader. */
export const workspaceQuerySchema = Joi.object<{ workspace?: string }>({ workspace: Joi.string().max(100) }).unknown(
  true,
);

/** A body whose `field` names an account (route-table.ts `accountCheck`); the other fields are the service's. */
export function accountFieldSchema(field: string): Joi.ObjectSchema<Record<string, unknown>> {
  return Joi.object({ [field]: Joi.string().guid().required() }).unknown(true);
}
