/**
 * Env parsing for every process: one joi schema per service, validated once
 * into a frozen object. Every bad variable is reported by name at once, so an
 * operator fixes the whole environment in one pass.
 */
import Joi from 'joi';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig<T extends object>(
  schema: Joi.ObjectSchema<T>,
  env: Record<string, string | undefined>,
): Readonly<T> {
  const { error, value } = schema.validate(env, {
    abortEarly: false,
    allowUnknown: true,
    stripUnknown: true,
    convert: true,
  });
  if (error) throw new ConfigError(error.details.map((d) => d.message));
  return Object.freeze(value);
}

/** Reusable pieces of env schemas. */
export const env = {
  port: (def: number) => Joi.number().integer().min(0).max(65535).default(def),
  secret: () => Joi.string().min(32).required().messages({ 'string.min': '{#label} must be at least 32 characters' }),
  postgresUrl: () => Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  logLevel: () => Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
};
