/**
 * The client a browser page uses (the web console): every SkillsClient
 * method, and the profile area's own operations, sent with the session
 * cookie of the page's origin instead of an API key. It keeps the CSRF token
 * of the last answer that carried one and sends it on every write.
 */
import { ApiError } from './api-error';
import { Transport, type SessionCredentials } from './transport';
import { SkillsClient } from './skills-client';
import type {
  ApiKey,
  AuthOptions,
  CreateApiKeyInput,
  InvitationPreview,
  LinkedIdentity,
  NewApiKey,
  OwnApiKeys,
  PasswordChangeInput,
  PasswordResetChoices,
  Session,
  SignedIn,
  SignUpInput,
} from './session-types';
import type { Workspace } from './types';

export interface SessionClientOptions {
  /** the gateway's origin, e.g. `location.origin` in a page it serves */
  baseUrl: string;
  /** absent: the browser's own Accept-Language decides the language of errors */
  language?: 'en' | 'fr';
  fetch?: typeof fetch;
}

export class SessionClient extends SkillsClient {
  private readonly session: SessionCredentials;

  constructor(options: SessionClientOptions) {
    const session: SessionCredentials = {};
    super(new Transport({ ...options, credentials: { session } }));
    this.session = session;
  }

  /** How people may sign in and up here (no session needed). */
  authOptions(): Promise<AuthOptions> {
    return this.call<AuthOptions>('authOptions', {});
  }

  /** The session of this browser, or undefined when signed out (401). */
  async getSession(): Promise<SignedIn | undefined> {
    try {
      return this.remember(await this.call<SignedIn>('getSession', {}));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return undefined;
      throw err;
    }
  }

  async signIn(email: string, password: string): Promise<SignedIn> {
    return this.remember(await this.call<SignedIn>('signIn', { body: { email, password } }));
  }

  /** The same answer whether the address is new or taken: the mailed link, with this password, signs in (verifyEmail). */
  signUp(input: SignUpInput): Promise<{ requested: true }> {
    return this.call<{ requested: true }>('signUp', { body: input });
  }

  /** Signs in with a one-time link's token (from its `#token=` fragment). */
  async signInWithLink(token: string): Promise<SignedIn> {
    return this.remember(await this.call<SignedIn>('signInWithLink', { body: { token } }));
  }

  /** Verifies the address with the mailed link's token and the password chosen at the sign-up it confirms; signs in. */
  async verifyEmail(token: string, password: string): Promise<SignedIn> {
    return this.remember(await this.call<SignedIn>('verifyEmail', { body: { token, password } }));
  }

  /** Mails a reset link if the address has an account; the same answer either way. */
  requestPasswordReset(email: string): Promise<{ requested: true }> {
    return this.call<{ requested: true }>('requestPasswordReset', { body: { email } });
  }

  /** A new password through a reset link: every session ends; the API keys and linked identities too, as chosen. */
  async resetPassword(token: string, password: string, choices: PasswordResetChoices = {}): Promise<SignedIn> {
    return this.remember(await this.call<SignedIn>('resetPassword', { body: { token, password, ...choices } }));
  }

  changePassword(input: PasswordChangeInput): Promise<{ changed: true; revokedApiKeys: number }> {
    return this.call<{ changed: true; revokedApiKeys: number }>('changePassword', { body: input });
  }

  /** Confirms the password again: the session may then create and roll keys for a while. */
  async reauthenticate(password: string): Promise<SignedIn> {
    return this.remember(await this.call<SignedIn>('reauthenticate', { body: { password } }));
  }

  /** Where to send the browser to link single sign-on to this account. */
  oidcLink(): Promise<{ url: string }> {
    return this.call<{ url: string }>('oidcLink', {});
  }

  /** Where to send the browser to confirm through single sign-on; it comes back to /console/keys. */
  oidcReauthenticate(): Promise<{ url: string }> {
    return this.call<{ url: string }>('oidcReauthenticate', {});
  }

  async signOut(): Promise<void> {
    await this.call<unknown>('signOut', {});
    this.session.csrfToken = undefined;
  }

  async listSessions(): Promise<Session[]> {
    return (await this.call<{ sessions: Session[] }>('listSessions', {})).sessions;
  }

  /** Ends every session of the account but this one; answers how many ended. */
  async signOutOtherSessions(): Promise<number> {
    return (await this.call<{ signedOut: number }>('signOutOtherSessions', {})).signedOut;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.call<unknown>('endSession', { params: { sessionId } });
  }

  /** The single sign-on identities linked to the account: each is a way into it. */
  async listIdentities(): Promise<LinkedIdentity[]> {
    return (await this.call<{ identities: LinkedIdentity[] }>('listIdentities', {})).identities;
  }

  /** Unlinks one (ApiError 409 when it is the account's only way to sign in). */
  async removeIdentity(identityId: string): Promise<void> {
    await this.call<{ removed: true }>('removeIdentity', { params: { identityId } });
  }

  listOwnApiKeys(): Promise<OwnApiKeys> {
    return this.call<OwnApiKeys>('listOwnApiKeys', {});
  }

  /** Needs a recent sign-in (ApiError 403 otherwise: reauthenticate first). */
  async createOwnApiKey(input: CreateApiKeyInput): Promise<NewApiKey> {
    return (await this.call<{ apiKey: NewApiKey }>('createOwnApiKey', { body: input })).apiKey;
  }

  async revokeOwnApiKey(keyId: string): Promise<void> {
    await this.call<{ revoked: true }>('revokeOwnApiKey', { params: { keyId } });
  }

  /** A new secret for the key; the old one stays valid `graceSeconds` (0: revoked at once). */
  rollOwnApiKey(keyId: string, graceSeconds: number): Promise<{ apiKey: NewApiKey; previous: ApiKey }> {
    return this.call<{ apiKey: NewApiKey; previous: ApiKey }>('rollOwnApiKey', {
      params: { keyId },
      body: { graceSeconds },
    });
  }

  /** What an invitation link offers, without accepting it. */
  async previewInvitation(token: string): Promise<InvitationPreview> {
    return (await this.call<{ invitation: InvitationPreview }>('previewInvitation', { body: { token } })).invitation;
  }

  /** Joins the workspace of an invitation link. */
  async acceptInvitation(token: string): Promise<Workspace> {
    return (await this.call<{ workspace: Workspace }>('acceptInvitation', { body: { token } })).workspace;
  }

  private remember(signedIn: SignedIn): SignedIn {
    this.session.csrfToken = signedIn.csrfToken;
    return signedIn;
  }
}
