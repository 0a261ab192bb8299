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
    id: '002_sign_in_sessions_and_key_scopes',
    up: `
      -- argon2id (PHC string); NULL for accounts that sign in only through OIDC or a link.
      ALTER TABLE gateway.accounts ADD COLUMN password_hash text;

      -- NULL scopes: a key made before scopes existed, which keeps every scope.
      ALTER TABLE gateway.api_keys ADD COLUMN scopes text[];
      ALTER TABLE gateway.api_keys ADD COLUMN expires_at timestamptz;

      -- A session row holds only the SHA-256 of the random id the cookie carries.
      CREATE TABLE gateway.sessions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES gateway.accounts (id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
        method text NOT NULL,
        user_agent text,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        idle_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_account_idx ON gateway.sessions (account_id);

      -- One-time links (sign-in, password reset, invitation), by the SHA-256 of their token.
      CREATE TABLE gateway.one_time_links (
        token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
        purpose text NOT NULL CHECK (purpose IN ('sign-in', 'password-reset', 'invitation')),
        account_id uuid REFERENCES gateway.accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );

      -- Who an OpenID Connect subject is here; (issuer, subject) is the stable identity.
      CREATE TABLE gateway.oidc_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        account_id uuid NOT NULL REFERENCES gateway.accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      );

      -- An authorization request in flight: its PKCE verifier and nonce, by the SHA-256 of its state.
      CREATE TABLE gateway.oidc_flows (
        state_hash bytea PRIMARY KEY CHECK (octet_length(state_hash) = 32),
        code_verifier text NOT NULL,
        nonce text NOT NULL,
        expires_at timestamptz NOT NULL
      );
    `,
  },
  {
    id: '003_audit_events',
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
  {
    id: '004_workspace_invitation_links',
    up: `
      -- A workspace invitation is a one-time invitation link naming the
      -- invitation whose terms collections-service keeps (an id of its
      -- schema: no foreign key across services). It also signs its holder up.
      ALTER TABLE gateway.one_time_links ADD COLUMN workspace_invitation_id uuid;
      CREATE INDEX one_time_links_workspace_invitation_idx ON gateway.one_time_links (workspace_invitation_id)
        WHERE workspace_invitation_id IS NOT NULL;
    `,
  },
  {
    id: '005_verified_emails',
    up: `
      -- An address is verified (a mailed one-time link, a provider that
      -- vouches for it at sign-up, or the operator who made the account)
      -- before it may receive invitations, reset a password or be matched by
      -- a sign-in provider. Accounts made before this: verified only when an
      -- operator made them (no password) or a provider is linked.
      ALTER TABLE gateway.accounts ADD COLUMN email_verified_at timestamptz;
      UPDATE gateway.accounts a SET email_verified_at = a.created_at
       WHERE a.password_hash IS NULL OR EXISTS (SELECT 1 FROM gateway.oidc_identities i WHERE i.account_id = a.id);
      ALTER TABLE gateway.one_time_links DROP CONSTRAINT one_time_links_purpose_check;
      ALTER TABLE gateway.one_time_links ADD CONSTRAINT one_time_links_purpose_check
        CHECK (purpose IN ('sign-in', 'password-reset', 'invitation', 'email-verification'));
      -- A flow started from a signed-in session to link a provider identity to that account.
      ALTER TABLE gateway.oidc_flows ADD COLUMN link_account_id uuid REFERENCES gateway.accounts (id) ON DELETE CASCADE;
    `,
  },
  {
    id: '006_session_authenticated_at',
    up: `
      -- When the session's holder last proved who they are (the sign-in, or
      -- the password entered again): creating or rolling an API key needs
      -- it recent, so a stolen session cookie alone mints no key.
      ALTER TABLE gateway.sessions ADD COLUMN authenticated_at timestamptz;
      UPDATE gateway.sessions SET authenticated_at = created_at;
      ALTER TABLE gateway.sessions ALTER COLUMN authenticated_at SET NOT NULL;
    `,
  },
  {
    id: '007_link_expiry_indexes',
    up: `
      -- Every replica deletes links and flows past their time in batches
      -- (store/link.repository.ts): found by expiry, not by a scan of the table.
      CREATE INDEX one_time_links_expires_idx ON gateway.one_time_links (expires_at);
      CREATE INDEX one_time_links_used_idx ON gateway.one_time_links (used_at) WHERE used_at IS NOT NULL;
      CREATE INDEX oidc_flows_expires_idx ON gateway.oidc_flows (expires_at);
    `,
  },
  {
    id: '008_verification_link_password',
    up: `
      -- A sign-up for an address whose account was never verified (someone
      -- else may have signed it up) mails a verification link that carries
      -- the new sign-up's password hash: opening it proves the mailbox, sets
      -- that password and ends the account's sessions.
      ALTER TABLE gateway.one_time_links ADD COLUMN password_hash text;
    `,
  },
  {
    id: '009_oidc_reauthentication',
    up: `
      -- A flow started from a signed-in session may re-authenticate it
      -- (a person without a password proves who they are before a key
      -- change) instead of linking the identity: link_account_id names the
      -- account either way, this says which of the two.
      ALTER TABLE gateway.oidc_flows ADD COLUMN reauthenticate boolean NOT NULL DEFAULT false;
    `,
  },
  {
    id: '010_scanners',
    up: `
      -- Scanner credentials (docs/trust.md): only the SHA-256 of the token is
      -- stored; revocation sets revoked_at, so a name may be issued again
      -- once its scanner is revoked, never twice while active.
      CREATE TABLE gateway.scanners (
        id uuid PRIMARY KEY,
        name text NOT NULL CHECK (name ~ '^[a-z0-9-]{1,64}$'),
        token_hash bytea NOT NULL UNIQUE CHECK (octet_length(token_hash) = 32),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE UNIQUE INDEX scanners_active_name_key ON gateway.scanners (name) WHERE revoked_at IS NULL;

      -- A scanner acts in the audit trail as itself, not as an anonymous caller.
      ALTER TABLE gateway.audit_events ADD COLUMN actor_scanner_id uuid;
      ALTER TABLE gateway.audit_events DROP CONSTRAINT audit_events_actor_kind_check;
      ALTER TABLE gateway.audit_events ADD CONSTRAINT audit_events_actor_kind_check
        CHECK (actor_kind IN ('admin', 'account', 'anonymous', 'scanner'));
    `,
  },
  {
    id: '011_api_key_workspace',
    up: `
      -- A key bound to a team workspace (docs/governance.md "Policy for every
      -- client"): every search made with it applies that workspace's policy.
      -- No foreign key: workspaces are collections-service's, and membership
      -- is asked of it on every policy fetch, not trusted from this row.
      ALTER TABLE gateway.api_keys ADD COLUMN workspace_id uuid;
    `,
  },
  {
    id: '012_accounts_only_their_owner_controls',
    up: `
      -- An address counts only once verified (docs/security.md "Account
      -- lifecycle"): an unverified account signs in to nothing. What such
      -- accounts hold from before (sessions, keys, provider identities that
      -- whoever signed the address up may have made) is removed, each
      -- removal in the trail as the operator's act of this upgrade.
      INSERT INTO gateway.audit_events (actor_kind, action, target_account_id, target, request_id, client_address, details)
        SELECT 'admin', 'auth.session_end', s.account_id, s.id::text, 'migration-012', '-', '{"reason": "unverified"}'::jsonb
          FROM gateway.sessions s JOIN gateway.accounts a ON a.id = s.account_id WHERE a.email_verified_at IS NULL;
      DELETE FROM gateway.sessions s USING gateway.accounts a WHERE a.id = s.account_id AND a.email_verified_at IS NULL;
      INSERT INTO gateway.audit_events (actor_kind, action, target_account_id, target, request_id, client_address, details)
        SELECT 'admin', 'api_key.revoke', k.account_id, k.id::text, 'migration-012', '-',
               jsonb_build_object('reason', 'unverified', 'prefix', k.prefix, 'name', k.name)
          FROM gateway.api_keys k JOIN gateway.accounts a ON a.id = k.account_id WHERE a.email_verified_at IS NULL AND k.revoked_at IS NULL;
      UPDATE gateway.api_keys k SET revoked_at = now() FROM gateway.accounts a
       WHERE a.id = k.account_id AND a.email_verified_at IS NULL AND k.revoked_at IS NULL;
      INSERT INTO gateway.audit_events (actor_kind, action, target_account_id, target, request_id, client_address, details)
        SELECT 'admin', 'auth.oidc_unlink', i.account_id, i.issuer, 'migration-012', '-', jsonb_build_object('reason', 'unverified', 'subject', i.subject)
          FROM gateway.oidc_identities i JOIN gateway.accounts a ON a.id = i.account_id WHERE a.email_verified_at IS NULL;
      DELETE FROM gateway.oidc_identities i USING gateway.accounts a WHERE a.id = i.account_id AND a.email_verified_at IS NULL;

      -- The profile lists the identities linked to an account and removes one by its id.
      ALTER TABLE gateway.oidc_identities ADD COLUMN id uuid NOT NULL DEFAULT gen_random_uuid();
      CREATE UNIQUE INDEX oidc_identities_id_key ON gateway.oidc_identities (id);
      CREATE INDEX oidc_identities_account_idx ON gateway.oidc_identities (account_id);
    `,
  },
];
