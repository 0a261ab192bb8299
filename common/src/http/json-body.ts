import express, { type NextFunction, type Request, type Response } from 'express';
import type { ServerResponse } from 'node:http';
import { AuthenticationError, InputError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors';
import { EMPTY_BODY, PrincipalVerificationError, bodyDigest } from '../principal';
import { signedBodyOf } from './principal-auth';

/** The body limit of the API (docs/api.md): larger bodies get 413 before any parsing. */
export const JSON_BODY_LIMIT = '100kb';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '100kb' → 102400 (body-parser's notation); an unreadable size disables the early check. */
function parseByteSize(size: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(size.trim());
  if (!match) return Number.POSITIVE_INFINITY;
  return Math.floor(Number(match[1]) * (UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1));
}

/** Whether the request carries a body (a length other than 0, or chunked). */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Behind requirePrincipal: the bytes read must be the ones the gateway signed (docs/security.md). */
function checkSignedBody(_req: unknown, res: ServerResponse, bytes: Buffer): void {
  const signed = signedBodyOf(res as Response);
  if (signed !== undefined && bodyDigest(bytes) !== signed) throw new PrincipalVerificationError('body');
}

/**
 * JSON body parsing with the project's rules: a body that is not
 * `application/json` gets 415, one over the limit 413 (checked against
 * Content-Length before reading), malformed JSON 400; in a service, a body
 * other than the one the principal was signed for 401. Requests without a
 * body pass through with `req.body` undefined.
 */
export function jsonBody(limit: string = JSON_BODY_LIMIT) {
  const parse = express.json({ limit, strict: true, type: () => true, verify: checkSignedBody });
  const limitBytes = parseByteSize(limit);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) {
      const signed = signedBodyOf(res);
      // a header signed for a body that never arrived
      if (signed !== undefined && signed !== EMPTY_BODY)
        return next(bodyRejected(new PrincipalVerificationError('body')));
      return next();
    }
    if (!req.is('application/json')) {
      return next(new UnsupportedMediaTypeError('body.unsupportedType', { type: 'application/json' }));
    }
    // body-parser answers 413 only after reading (and discarding) the whole
    // body; a declared length over the limit is refused before any byte, and
    // the connection closed so the client stops sending.
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      res.setHeader('Connection', 'close');
      return next(new PayloadTooLargeError('body.tooLarge', { limit }));
    }
    parse(req, res, (err?: unknown) => {
      if (err) return next(translateBodyParserError(err, limit));
      next(containsNul(req.body) ? new InputError('body.nulCharacter') : undefined);
    });
  };
}

/**
 * Postgres text cannot hold U+0000 and Sequelize's escaping would store it
 * as the two characters `\0`: a body carrying one is refused rather than
 * silently changed. Deeper than 64 levels no validator of ours accepts the
 * body anyway.
 */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value))
    if (key.includes('\u0000') || containsNul(inner, depth + 1)) return true;
  return false;
}

/** body-parser reports its failures with a `type` field; map them to our errors. */
export function translateBodyParserError(err: unknown, limit: string): unknown {
  if (err instanceof PrincipalVerificationError) return bodyRejected(err);
  const type = (err as { type?: string }).type;
  if (type === 'entity.too.large') return new PayloadTooLargeError('body.tooLarge', { limit }, { cause: err });
  if (type === 'entity.parse.failed') return new InputError('body.invalidJson', {}, { cause: err });
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new UnsupportedMediaTypeError('body.unsupportedType', { type: 'application/json' }, { cause: err });
  }
  if (type === 'request.aborted' || type === 'request.size.invalid') {
    return new InputError('body.invalidJson', {}, { cause: err });
  }
  // Express's router and the gateway's route table decode path segments;
  // a segment that is not percent-encoded UTF-8 (%ED%A0%80, %zz) is the
  // client's mistake, not a 500.
  if (err instanceof URIError) return new InputError('route.malformedPath', {}, { cause: err });
  return err;
}

function bodyRejected(err: PrincipalVerificationError): AuthenticationError {
  return new AuthenticationError('auth.invalidPrincipal', {}, { cause: err });
}
