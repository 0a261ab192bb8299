/**
 * Security headers on every answer of the gateway, set by helmet: the
 * middleware is well kept and knows the browsers' quirks better than a
 * hand-written list. Two Content-Security-Policies: the API's answers are
 * JSON that no browser should render or frame (`default-src 'none'`), and
 * the /docs page gets only what Swagger UI needs from our own origin (no
 * inline script, no third party).
 */
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

export interface SecurityHeadersOptions {
  /** Strict-Transport-Security max-age in seconds; 0 sends none (plain HTTP, as on loopback) */
  hstsMaxAgeSeconds: number;
}

/** The policy of every answer but the docs page: nothing may load, nothing may frame it. */
const API_POLICY = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/** The docs page: its scripts, styles, images and the document, all from this origin. */
const DOCS_POLICY = {
  ...API_POLICY,
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
};

type HeaderStep = { set: string; value: string } | { remove: string };

/**
 * What a helmet middleware does to an answer, recorded once. Our policies
 * are constants (no nonce, nothing read from the request), so helmet's
 * headers are the same on every answer: replaying them saves its chain of
 * a dozen middlewares on each request.
 */
function recordedSteps(middleware: (req: Request, res: Response, next: (err?: unknown) => void) => void): HeaderStep[] {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      steps.push({ set: name, value: String(value) });
      return recorder;
    },
    removeHeader(name: string) {
      steps.push({ remove: name });
    },
  };
  let failed: unknown;
  middleware({} as Request, recorder as unknown as Response, (err) => (failed = err));
  if (failed !== undefined) throw new Error('helmet refused the security header options', { cause: failed });
  return steps;
}

function replay(steps: readonly HeaderStep[]) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (const step of steps) {
      if ('set' in step) res.setHeader(step.set, step.value);
      else res.removeHeader(step.remove);
    }
    next();
  };
}

/** Helmet with the API's policy, on every answer (set before any route runs). */
export function securityHeaders(options: SecurityHeadersOptions) {
  return replay(
    recordedSteps(
      helmet({
        contentSecurityPolicy: { useDefaults: false, directives: API_POLICY },
        referrerPolicy: { policy: 'no-referrer' },
        xFrameOptions: { action: 'deny' },
        strictTransportSecurity:
          options.hstsMaxAgeSeconds > 0 ? { maxAge: options.hstsMaxAgeSeconds, includeSubDomains: true } : false,
      }),
    ),
  );
}

const docsPolicy = replay(recordedSteps(helmet.contentSecurityPolicy({ useDefaults: false, directives: DOCS_POLICY })));

/** Replaces the API's policy with the docs page's, on the docs routes only. */
export function docsPageSecurity() {
  return docsPolicy;
}
