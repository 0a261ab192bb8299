/**
 * The standalone launcher's environment, validated once (common's
 * loadConfig): every bad variable is named in one message, the services'
 * own included, before anything starts.
 */
import { resolve } from 'node:path';
import Joi from 'joi';
import { ConfigError, env, loadConfig } from '@skills/common';
import { checkPassedOn, passedOn, type PassedOnEnv } from './services';

export interface LauncherConfig {
  /** port of the gateway, the only public listener */
  port: number;
  /** operator-given admin token; when absent one is generated and kept in dataDir */
  adminToken?: string;
  /** absolute path of the directory holding the embedded database and the token file */
  dataDir: string;
  /** a Postgres server to use instead of the embedded PGlite */
  databaseUrl?: string;
  logLevel: string;
  /**
   * Every other variable of the gateway's, catalog-service's and
   * collections-service's own tables, as given, for the service that reads
   * it (services.ts `passedOn`): SMTP_URL, PUBLIC_URL, HOST, SIGNUP_MODE,
   * the OIDC settings, the throttles, caches and limits alike.
   */
  passedOn: PassedOnEnv;
}

interface LauncherEnv {
  PORT: number;
  ADMIN_TOKEN?: string;
  DATA_DIR: string;
  DATABASE_URL?: string;
  LOG_LEVEL: string;
}

/** The variables the launcher reads for itself (docs/configuration.md describes each: a test checks). */
export const LAUNCHER_ENV = Joi.object<LauncherEnv>({
  PORT: env.port(8080),
  // The gateway refuses shorter admin tokens (common env.secret()).
  ADMIN_TOKEN: Joi.string().min(32).messages({ 'string.min': '{#label} must be at least 32 characters' }),
  DATA_DIR: Joi.string().default('.data'),
  DATABASE_URL: env.postgresUrl(),
  // The embedded run talks to a person at a terminal: only warnings and worse by default.
  LOG_LEVEL: env.logLevel().default('warn'),
});

export function loadLauncherConfig(vars: Record<string, string | undefined>): LauncherConfig {
  const problems: string[] = [];
  let own: Readonly<LauncherEnv> | undefined;
  try {
    own = loadConfig(LAUNCHER_ENV, vars);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(...err.problems);
  }
  const given = passedOn(vars);
  problems.push(...checkPassedOn(given, own?.PORT ?? 8080));
  if (problems.length > 0 || !own) throw new ConfigError(problems);
  return Object.freeze({
    port: own.PORT,
    adminToken: own.ADMIN_TOKEN,
    dataDir: resolve(own.DATA_DIR),
    databaseUrl: own.DATABASE_URL,
    logLevel: own.LOG_LEVEL,
    passedOn: given,
  });
}
