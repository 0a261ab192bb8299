/**
 * Method and path template of each client method. The client builds its
 * requests from this table and gateway/test/unit/openapi-client.test.ts checks it
 * against the OpenAPI document, so the two cannot disagree. The last block
 * takes a browser session, not an API key (SessionClient).
 */
export const OPERATIONS = {
  searchSkills: { method: 'GET', path: '/api/v1/skills' },
  listSkillChanges: { method: 'GET', path: '/api/v1/skills/changes' },
  listMyCollections: { method: 'GET', path: '/api/v1/me/collections' },
  createMyCollection: { method: 'POST', path: '/api/v1/me/collections' },
  getMyCollection: { method: 'GET', path: '/api/v1/me/collections/{id}' },
  updateMyCollection: { method: 'PATCH', path: '/api/v1/me/collections/{id}' },
  deleteMyCollection: { method: 'DELETE', path: '/api/v1/me/collections/{id}' },
  listWorkspaceCollections: { method: 'GET', path: '/api/v1/workspaces/{id}/collections' },
  createWorkspaceCollection: { method: 'POST', path: '/api/v1/workspaces/{id}/collections' },
  getWorkspaceCollection: { method: 'GET', path: '/api/v1/workspaces/{id}/collections/{collectionId}' },
  updateWorkspaceCollection: { method: 'PATCH', path: '/api/v1/workspaces/{id}/collections/{collectionId}' },
  deleteWorkspaceCollection: { method: 'DELETE', path: '/api/v1/workspaces/{id}/collections/{collectionId}' },
  removeWorkspaceMember: { method: 'DELETE', path: '/api/v1/workspaces/{id}/members/{accountId}' },
  getSkill: { method: 'GET', path: '/api/v1/skills/{slug}' },
  listSkillVersions: { method: 'GET', path: '/api/v1/skills/{slug}/versions' },
  getSkillVersion: { method: 'GET', path: '/api/v1/skills/{slug}/versions/{version}' },
  listSkillVersionVerdicts: { method: 'GET', path: '/api/v1/skills/{slug}/versions/{version}/verdicts' },
  reportSkill: { method: 'POST', path: '/api/v1/skills/{slug}/reports' },
  listMyPrivateSkills: { method: 'GET', path: '/api/v1/me/private-skills' },
  createMyPrivateSkill: { method: 'POST', path: '/api/v1/me/private-skills' },
  listWorkspaces: { method: 'GET', path: '/api/v1/workspaces' },
  createWorkspace: { method: 'POST', path: '/api/v1/workspaces' },
  getWorkspace: { method: 'GET', path: '/api/v1/workspaces/{id}' },
  listWorkspaceMembers: { method: 'GET', path: '/api/v1/workspaces/{id}/members' },
  setWorkspaceMemberRole: { method: 'PUT', path: '/api/v1/workspaces/{id}/members/{accountId}' },
  listWorkspaceInvitations: { method: 'GET', path: '/api/v1/workspaces/{id}/invitations' },
  createWorkspaceInvitation: { method: 'POST', path: '/api/v1/workspaces/{id}/invitations' },
  revokeWorkspaceInvitation: { method: 'DELETE', path: '/api/v1/workspaces/{id}/invitations/{invitationId}' },
  getWorkspacePolicy: { method: 'GET', path: '/api/v1/workspaces/{id}/policy' },
  setWorkspacePolicy: { method: 'PUT', path: '/api/v1/workspaces/{id}/policy' },
  updateCollectionPins: { method: 'POST', path: '/api/v1/workspaces/{id}/collections/{collectionId}/pins:update' },
  getCollectionLockfile: { method: 'GET', path: '/api/v1/workspaces/{id}/collections/{collectionId}/lockfile' },
  listWebhooks: { method: 'GET', path: '/api/v1/workspaces/{id}/webhooks' },
  createWebhook: { method: 'POST', path: '/api/v1/workspaces/{id}/webhooks' },
  getWebhook: { method: 'GET', path: '/api/v1/workspaces/{id}/webhooks/{webhookId}' },
  updateWebhook: { method: 'PATCH', path: '/api/v1/workspaces/{id}/webhooks/{webhookId}' },
  deleteWebhook: { method: 'DELETE', path: '/api/v1/workspaces/{id}/webhooks/{webhookId}' },
  listWebhookDeliveries: { method: 'GET', path: '/api/v1/workspaces/{id}/webhooks/{webhookId}/deliveries' },
  testWebhook: { method: 'POST', path: '/api/v1/workspaces/{id}/webhooks/{webhookId}/test' },

  authOptions: { method: 'GET', path: '/api/v1/auth/options' },
  signUp: { method: 'POST', path: '/api/v1/auth/sign-up' },
  signIn: { method: 'POST', path: '/api/v1/auth/sign-in' },
  signInWithLink: { method: 'POST', path: '/api/v1/auth/sign-in-link' },
  resetPassword: { method: 'POST', path: '/api/v1/auth/password-reset' },
  verifyEmail: { method: 'POST', path: '/api/v1/auth/verify-email' },
  requestPasswordReset: { method: 'POST', path: '/api/v1/auth/password-reset-request' },
  getSession: { method: 'GET', path: '/api/v1/auth/session' },
  signOut: { method: 'DELETE', path: '/api/v1/auth/session' },
  changePassword: { method: 'POST', path: '/api/v1/auth/password' },
  reauthenticate: { method: 'POST', path: '/api/v1/auth/reauthenticate' },
  oidcLink: { method: 'POST', path: '/api/v1/auth/oidc/link' },
  oidcReauthenticate: { method: 'POST', path: '/api/v1/auth/oidc/reauthenticate' },
  listSessions: { method: 'GET', path: '/api/v1/me/sessions' },
  signOutOtherSessions: { method: 'DELETE', path: '/api/v1/me/sessions' },
  endSession: { method: 'DELETE', path: '/api/v1/me/sessions/{sessionId}' },
  listIdentities: { method: 'GET', path: '/api/v1/me/identities' },
  removeIdentity: { method: 'DELETE', path: '/api/v1/me/identities/{identityId}' },
  listOwnApiKeys: { method: 'GET', path: '/api/v1/me/api-keys' },
  createOwnApiKey: { method: 'POST', path: '/api/v1/me/api-keys' },
  revokeOwnApiKey: { method: 'DELETE', path: '/api/v1/me/api-keys/{keyId}' },
  rollOwnApiKey: { method: 'POST', path: '/api/v1/me/api-keys/{keyId}/roll' },
  previewInvitation: { method: 'POST', path: '/api/v1/invitations/preview' },
  acceptInvitation: { method: 'POST', path: '/api/v1/invitations/accept' },
} as const satisfies OperationTable;

export type OperationName = keyof typeof OPERATIONS;

/** A client's table: each method's HTTP method and path template. */
export type OperationTable = Record<string, { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string }>;

/** Fills `{name}` placeholders, each value percent-encoded as one path segment. */
export function expandPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new TypeError(`missing path parameter "${name}"`);
    return encodeURIComponent(value);
  });
}
