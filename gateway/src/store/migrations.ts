import type { Migration } from '@skills/common';

/** The schema the gateway owns. Tables are always written schema-qualified. */
export const GATEWAY_SCHEMA = 'gateway';

/**
 * Forward-only migrations of the `gateway` schema, applied at start by
 * `runMigrations` (never `sync()`).
 */
export const gatewayMigrations: Migration[] = [
  {
    id: '001_accounts_and_api_keys',
    up: `
      CREATE TABLE gateway.accounts (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        name text,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'team')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- Emails are unique whatever their case: Ann@x.io and ann@x.io are one person.
      CREATE UNIQUE INDEX accounts_email_lower_key ON gateway.accounts (lower(email));

      -- Only the SHA-256 of a key is stored; the plaintext is shown once at creation.
      -- Revocation sets revoked_at instead of deleting, so the history stays readable.
      CREATE TABLE gateway.api_keys (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES gateway.accounts (id) ON DELETE CASCADE,
        name text,
        prefix text NOT NULL,
        key_hash bytea NOT NULL UNIQUE CHECK (octet_length(key_hash) = 32),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      );
      CREATE INDEX api_keys_account_idx ON gateway.api_keys (account_id);
    `,
  },
];
