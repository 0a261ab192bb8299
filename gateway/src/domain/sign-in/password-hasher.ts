/**
 * The one module that imports argon2. argon2id with OWASP's minimum
 * parameters (19 MiB, 2 passes, 1 lane): about 30 ms here, which bounds how
 * fast a stolen table can be guessed and how much one sign-in costs us.
 */
import argon2 from 'argon2';
import { OverloadedError } from '@skills/common';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password; never throws for a malformed stored hash */
  verify(stored: string, password: string): Promise<boolean>;
}

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class Argon2PasswordHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  async verify(stored: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(stored, password);
    } catch {
      return false;
    }
  }
}

export interface HashingLimits {
  /** hashes running at once in this process */
  concurrency: number;
  /** hashes waiting for a place; past it, 503 at once */
  queue: number;
}

/** One running hash per CPU we ship (deploy/ limits a gateway pod to one), a short queue behind it. */
export const DEFAULT_HASHING: HashingLimits = { concurrency: 1, queue: 8 };

/**
 * Password hashing behind a bounded semaphore: at most `concurrency` hashes
 * run, `queue` wait, and the rest are refused at once with 503 + Retry-After.
 * Hashing is the one thing an anonymous caller can make expensive; this
 * bounds what a flood of sign-ins or sign-ups takes from every other request.
 */
export class BoundedPasswordHasher implements PasswordHasher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly counts = { done: 0, shed: 0 };

  constructor(
    private readonly inner: PasswordHasher,
    private readonly limits: HashingLimits = DEFAULT_HASHING,
  ) {}

  hash(password: string): Promise<string> {
    return this.bounded(() => this.inner.hash(password));
  }

  verify(stored: string, password: string): Promise<boolean> {
    return this.bounded(() => this.inner.verify(stored, password));
  }

  /** Hashes run (or verified) and refused since start (for metrics and tests). */
  stats(): { done: number; shed: number } {
    return { ...this.counts };
  }

  private async bounded<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.waiting.length >= this.limits.queue) {
        this.counts.shed += 1;
        throw new OverloadedError(1);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      this.counts.done += 1;
      // The place passes to the next in line, or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
