/**
 * Serves the console, the single-page app built into console/dist, under
 * /console: its hashed assets cached for a year, index.html for every other
 * path (the app routes in the browser), always with a strict
 * Content-Security-Policy — scripts, styles and calls from this origin only,
 * no inline script, no framing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { NotFoundError } from '@skills/common';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
}

/** `dir`: the built app; when it is missing (not built), /console answers 404. */
export function consoleSite(dir: string | undefined) {
  const index = dir ? join(dir, 'index.html') : undefined;
  const assets = dir
    ? express.static(dir, { index: false, immutable: true, maxAge: '365d', fallthrough: true, redirect: false })
    : undefined;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!index || !assets || !existsSync(index)) return next(new NotFoundError('route.notFound'));
    secure(res);
    if (req.path === '/' && !req.originalUrl.split('?')[0]?.endsWith('/')) return res.redirect(301, '/console/');
    const sendIndex = () => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index, (err?: Error) => err && next(err));
    };
    if (!req.path.startsWith('/assets/')) return sendIndex();
    assets(req, res, () => next(new NotFoundError('route.notFound')));
  };
}
