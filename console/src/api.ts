/**
 * The console's one client of the gateway: @skills/client's SessionClient,
 * which sends this origin's session cookie and, on writes, the session's
 * CSRF token. Errors come back as ApiError with the API's own `{ error }`
 * text, in the browser's language. The console declares no path or shape of
 * the API: the types below are the client's, under the names pages use.
 */
import { SessionClient } from '@skills/client';
import type {
  CollectionEntry,
  PersonalCollection,
  PersonalCollectionPatch,
  TeamCollection,
  VerdictHistoryEntry,
  WorkspaceMember,
  WorkspaceRole,
} from '@skills/client';

export { ApiError } from '@skills/client';
export type {
  Account,
  ApiKey,
  AuthOptions,
  CatalogItem,
  CreatedInvitation,
  CreatedWebhook,
  DriftCause,
  FacetValue,
  Invitation,
  InvitedRole,
  LinkedIdentity,
  NewApiKey,
  Pagination,
  PinsUpdate,
  Release,
  Scan,
  Scope,
  SearchParams,
  SearchSort as Sort,
  Session,
  SignedIn,
  Webhook,
  WebhookEvent,
  Workspace,
  WorkspacePolicy,
} from '@skills/client';

export type Role = WorkspaceRole;
export type Entry = CollectionEntry;
export type Member = WorkspaceMember;
export type VerdictEntry = VerdictHistoryEntry;
export type CollectionPatch = PersonalCollectionPatch;
/** A personal collection, or a team one with its workspace, creator and compliance. */
export type Collection = PersonalCollection & Partial<Omit<TeamCollection, keyof PersonalCollection>>;

/** The client of the page's own origin; a unit test, which has no page, hands in its address and fetch. */
export function createConsoleClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): SessionClient {
  const origin = typeof location === 'undefined' ? 'http://localhost' : location.origin;
  return new SessionClient({ baseUrl: options.baseUrl ?? origin, fetch: options.fetch });
}

export const client = createConsoleClient();
