/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent
 * on cross-site subrequests), Path=/ and no Domain. Behind HTTPS it is
 * Secure and named `__Host-…`, which browsers accept only under those rules;
 * on plain-HTTP loopback (the embedded run) it cannot be Secure, and browsers
 * refuse a `__Host-` cookie that is not, so it drops the prefix there.
 */
import { parse, serialize, type SerializeOptions } from 'cookie';
import type { Request, Response } from 'express';
import type { Site } from '../../domain/site';

export class CookieJar {
  constructor(private readonly site: Site) {}

  /** `base`: `skills_session`, `skills_oidc` */
  nameOf(base: string): string {
    return this.site.plainLoopback ? base : `__Host-${base}`;
  }

  read(req: Request, base: string): string | undefined {
    const header = req.get('cookie');
    if (!header) return undefined;
    return parse(header)[this.nameOf(base)];
  }

  set(res: Response, base: string, value: string, maxAgeMs: number): void {
    res.append(
      'Set-Cookie',
      serialize(this.nameOf(base), value, { ...this.attributes(), maxAge: Math.max(0, Math.floor(maxAgeMs / 1000)) }),
    );
  }

  clear(res: Response, base: string): void {
    res.append('Set-Cookie', serialize(this.nameOf(base), '', { ...this.attributes(), maxAge: 0 }));
  }

  private attributes(): SerializeOptions {
    return { httpOnly: true, secure: !this.site.plainLoopback, sameSite: 'lax', path: '/' };
  }
}

export const SESSION_COOKIE = 'skills_session';
