/** How the console names the API's scopes and webhook events to a person; the values themselves are the client's types. */
import type { Scope, WebhookEvent } from './api';

export const SCOPES: ReadonlyArray<{ scope: Scope; label: string; help: string }> = [
  { scope: 'search:read', label: 'Search the catalog', help: 'search:read — search, the changes feed and item pages' },
  {
    scope: 'collections:read',
    label: 'Read collections',
    help: 'collections:read — list and read collections, private skills, workspaces and their members',
  },
  {
    scope: 'collections:write',
    label: 'Change collections',
    help: 'collections:write — create, change and delete collections and private skills',
  },
  {
    scope: 'workspaces:manage',
    label: 'Manage workspaces',
    help: 'workspaces:manage — create workspaces, invite people, change roles, remove members',
  },
];

/** Every event an endpoint may subscribe to, with what it means to a person. */
export const WEBHOOK_EVENTS: ReadonlyArray<{ event: WebhookEvent; label: string }> = [
  { event: 'collection.changed', label: 'A team collection is created, changed, updated or deleted' },
  {
    event: 'collection.drifted',
    label: 'An entry of a collection drifts (newer release, yank, verdict, block, removal)',
  },
  { event: 'release.verdict_changed', label: 'The verdict of a pinned release changes' },
  { event: 'policy.changed', label: 'The workspace policy changes' },
];
