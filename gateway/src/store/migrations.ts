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
  {
    id: '002_audit_events',
    up: `
      -- The audit trail (docs/security.md "Audit trail"): admin actions, key
      -- issuance and revocation, plan and role changes, failed
      -- authentications. Never a secret: keys by id and display prefix only.
      CREATE TABLE gateway.audit_events (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor_kind text NOT NULL CHECK (actor_kind IN ('admin', 'account', 'anonymous')),
        actor_account_id uuid,
        action text NOT NULL,
        target_account_id uuid,
        target text,
        request_id text NOT NULL,
        client_address text NOT NULL,
        details jsonb NOT NULL DEFAULT '{}'
      );
      -- retention deletes by age; the API pages newest first, by action or account
      CREATE INDEX audit_events_at_idx ON gateway.audit_events (at);
      CREATE INDEX audit_events_action_idx ON gateway.audit_events (action, id);
      CREATE INDEX audit_events_actor_idx ON gateway.audit_events (actor_account_id, id) WHERE actor_account_id IS NOT NULL;
      CREATE INDEX audit_events_target_idx ON gateway.audit_events (target_account_id, id) WHERE target_account_id IS NOT NULL;
    `,
  },
];
