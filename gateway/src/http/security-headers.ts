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

/** Helmet with the API's policy, on every answer (set before any route runs). */
export function securityHeaders(options: SecurityHeadersOptions) {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: API_POLICY },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: options.hstsMaxAgeSeconds > 0 ? { maxAge: options.hstsMaxAgeSeconds, includeSubDomains: true } : false,
  });
}

const docsPolicy = helmet.contentSecurityPolicy({ useDefaults: false, directives: DOCS_POLICY });

/** Replaces the API's policy with the docs page's, on the docs routes only. */
export function docsPageSecurity() {
  return (req: Request, res: Response, next: NextFunction): void => docsPolicy(req, res, next);
}
