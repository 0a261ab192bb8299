/**
 * Signing in through the operator's OpenID Connect provider: authorization
 * code flow with PKCE (S256), state and nonce, all through openid-client
 * (the one module that imports it; an ES module, hence the dynamic import).
 * The flow's verifier and nonce wait in the database by the hash of the
 * state, which the browser also holds in a short-lived cookie, so a callback
 * is honoured only in the browser that started it, once, within 10 minutes.
 *
 * Who the person is here: the account already linked to (issuer, subject);
 * else, when no account has the provider's email, the provider says it is
 * verified and sign-up is open, a new `free` account with that address
 * verified. An identity is never linked to an existing account by its email
 * (whoever signed up with a password first would get the provider's person):
 * linking is an explicit step from that account's session (`start` with
 * `{ purpose: 'link' }`), which needs a verified address and a recent sign-in
 * (a stolen session cookie alone links nothing, so it cannot become a way back
 * in), and it ends the account's other sessions. A link and
 * a new account commit with their audit record; neither records a token,
 * the state, the nonce or the PKCE verifier.
 *
 * A person without a password re-authenticates the same way (`{ purpose:
 * 'reauthenticate' }`): the session that started the flow counts as
 * recently signed in once the provider answers with an identity linked to
 * that session's account, and with no other.
 */
import { createHash } from 'node:crypto';
import { AuthenticationError, NotAllowedError, cleanDisplayText, type Logger } from '@skills/common';
import { ACCOUNT_NAME_MAX, type Account } from '../accounts/account';
import type { AuditLog } from '../audit/audit';
import type { CredentialStore, LinkStore } from '../sign-in/credentials';
import type { SessionRecord } from '../sessions/session';
import type { Site } from '../site';
import { authEvent, type AuthRequest } from '../audit/auth-audit';
import type { SignedIn, SignInService } from '../sign-in/sign-in.service';
import type { SignUpMode } from '../sign-in/sign-up.service';
import type { SessionService } from '../sessions/session.service';

type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
type Configuration = import('openid-client', { with: { 'resolution-mode': 'import' } }).Configuration;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the provider's name on the sign-in button */
  name: string;
}

export const OIDC_FLOW_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest();

export class OidcService {
  private client: Promise<{ lib: OpenIdClient; config: Configuration }> | undefined;
  private readonly now: () => number;

  constructor(
    private readonly deps: {
      settings: OidcSettings;
      links: LinkStore;
      credentials: CredentialStore;
      signIn: SignInService;
      signUpMode: SignUpMode;
      sessions: SessionService;
      audit: AuditLog;
      site: Site;
      logger: Logger;
      now?: () => number;
    },
  ) {
    this.now = deps.now ?? Date.now;
  }

  get name(): string {
    return this.deps.settings.name;
  }

  /**
   * The provider's authorization URL and the state the browser must keep (cookie); `bound`: a flow of this
   * signed-in account, to link the identity to it or to re-authenticate its session.
   */
  async start(bound?: {
    accountId: string;
    session: SessionRecord;
    purpose: 'link' | 'reauthenticate';
  }): Promise<{ url: string; state: string }> {
    if (bound?.purpose === 'link') {
      // A new way into the account: only for an address proven, and only by whoever proved who they are just now
      // (a password, or an identity already linked), not by whoever holds the session cookie.
      if (!(await this.deps.credentials.emailVerified(bound.accountId))) throw new NotAllowedError('email.notVerified');
      this.deps.sessions.requireRecent(bound.session);
    }
    const { lib, config } = await this.connect();
    const codeVerifier = lib.randomPKCECodeVerifier();
    const state = lib.randomState();
    const nonce = lib.randomNonce();
    await this.deps.links.insertFlow({
      stateHash: hashState(state),
      codeVerifier,
      nonce,
      expiresAt: new Date(this.now() + OIDC_FLOW_TTL_MS),
      linkAccountId: bound?.accountId,
      reauthenticate: bound?.purpose === 'reauthenticate',
    });
    const url = lib.buildAuthorizationUrl(config, {
      redirect_uri: this.deps.site.link(CALLBACK_PATH),
      scope: 'openid email profile',
      code_challenge: await lib.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** Ends a flow at the callback: `callbackUrl` as the provider sent the browser back, `cookieState` from its cookie. */
  async finish(
    callbackUrl: URL,
    cookieState: string | undefined,
    from: AuthRequest,
    current?: { accountId: string; session: SessionRecord },
  ): Promise<({ kind: 'signedIn' } & SignedIn) | { kind: 'linked' } | { kind: 'reauthenticated' }> {
    const state = callbackUrl.searchParams.get('state');
    if (!state || state !== cookieState) throw new AuthenticationError('oidc.failed');
    const flow = await this.deps.links.takeFlow(hashState(state), new Date(this.now()));
    if (!flow) throw new AuthenticationError('oidc.failed');
    const { lib, config } = await this.connect();
    let claims: Record<string, unknown> | undefined;
    try {
      const tokens = await lib.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      throw new AuthenticationError('oidc.failed', {}, { cause: err });
    }
    if (!claims || typeof claims.sub !== 'string') throw new AuthenticationError('oidc.failed');
    const issuer = String(claims.iss ?? this.deps.settings.issuer);
    if (flow.linkAccountId !== null) {
      // Only in the session that asked for it: the same account still signed in in this browser.
      if (current?.accountId !== flow.linkAccountId) throw new AuthenticationError('oidc.failed');
      if (flow.reauthenticate) return this.reauthenticate(issuer, claims.sub, current, from);
      const record = authEvent(from, 'auth.oidc_link', current.accountId, { issuer });
      if (!(await this.deps.credentials.linkIdentity(issuer, claims.sub, current.accountId, record)))
        throw new NotAllowedError('oidc.linkedElsewhere');
      await this.deps.sessions.endAllBut(current.accountId, current.session.id);
      return { kind: 'linked' };
    }
    const account = await this.accountOf(issuer, claims.sub, claims, from);
    return { kind: 'signedIn', account, opened: await this.deps.signIn.open(account, 'oidc', from) };
  }

  /** Only the identity linked to this very account proves its holder: any other person at the provider is refused. */
  private async reauthenticate(
    issuer: string,
    subject: string,
    current: { accountId: string; session: SessionRecord },
    from: AuthRequest,
  ): Promise<{ kind: 'reauthenticated' }> {
    const linked = await this.deps.credentials.findByIdentity(issuer, subject);
    if (linked?.id !== current.accountId) throw new NotAllowedError('oidc.reauthenticateOther');
    await this.deps.sessions.markAuthenticated(current.session);
    await this.deps.audit.append(authEvent(from, 'auth.reauthenticate', current.accountId, { method: 'oidc', issuer }));
    return { kind: 'reauthenticated' };
  }

  private async accountOf(
    issuer: string,
    subject: string,
    claims: Record<string, unknown>,
    from: AuthRequest,
  ): Promise<Account> {
    const { credentials, signUpMode } = this.deps;
    const linked = await credentials.findByIdentity(issuer, subject);
    if (linked) return linked;
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    if (!email || claims.email_verified !== true) throw new NotAllowedError('oidc.emailNotVerified');
    // Never matched by email: that account's owner links the identity from a session of theirs.
    if (await credentials.findByEmail(email)) throw new NotAllowedError('oidc.linkRequired');
    if (signUpMode === 'closed') throw new NotAllowedError('signUp.closed');
    if (signUpMode === 'invite') throw new NotAllowedError('signUp.invitationRequired');
    // cleaned, not refused: the person did not type it and could not fix it here
    const name = cleanDisplayText(claims.name, ACCOUNT_NAME_MAX);
    const record = (id: string) => authEvent(from, 'auth.sign_up', id, { method: 'oidc', issuer });
    const account = await credentials.create(
      { email, name, plan: 'free', passwordHash: null, emailVerified: true },
      undefined,
      record,
    );
    if (!account || !(await credentials.linkIdentity(issuer, subject, account.id)))
      throw new AuthenticationError('oidc.failed');
    return account;
  }

  /** Discovery once, retried on the next sign-in when the provider was unreachable. */
  private connect(): Promise<{ lib: OpenIdClient; config: Configuration }> {
    this.client ??= this.discover().catch((err: unknown) => {
      this.client = undefined;
      throw new AuthenticationError('oidc.failed', {}, { cause: err });
    });
    return this.client;
  }

  private async discover(): Promise<{ lib: OpenIdClient; config: Configuration }> {
    const lib = await import('openid-client');
    const { issuer, clientId, clientSecret } = this.deps.settings;
    const url = new URL(issuer);
    // Plain HTTP only for a provider on this machine (a test or a local setup), never across a network.
    const loopback = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    const config = await lib.discovery(
      url,
      clientId,
      clientSecret,
      undefined,
      loopback ? { execute: [lib.allowInsecureRequests] } : undefined,
    );
    this.deps.logger.info({ issuer }, 'OpenID Connect provider discovered');
    return { lib, config };
  }
}
