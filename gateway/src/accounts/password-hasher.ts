/**
 * The one module that imports argon2. argon2id with OWASP's minimum
 * parameters (19 MiB, 2 passes, 1 lane): about 30 ms here, which bounds how
 * fast a stolen table can be guessed and how much one sign-in costs us.
 */
import argon2 from 'argon2';

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
