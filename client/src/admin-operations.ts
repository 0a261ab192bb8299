/**
 * Method and path template of each admin client method: every operation of
 * `/admin/v1`, sent with the admin token. gateway/test/unit/openapi-client.test.ts
 * holds the table to the OpenAPI document both ways (each entry is a
 * documented operation with the same operationId, and each documented admin
 * operation is here), as it does the public one. The scanners' own route
 * is in SCANNER_OPERATIONS.
 */
import type { OperationTable } from './operations';

export const ADMIN_OPERATIONS = {
  adminCreateAccount: { method: 'POST', path: '/admin/v1/accounts' },
  adminGetAccount: { method: 'GET', path: '/admin/v1/accounts/{id}' },
  adminUpdateAccount: { method: 'PATCH', path: '/admin/v1/accounts/{id}' },
  adminCreateLink: { method: 'POST', path: '/admin/v1/accounts/{id}/links' },
  adminSignOutEverywhere: { method: 'DELETE', path: '/admin/v1/accounts/{id}/sessions' },
  adminCreateInvitation: { method: 'POST', path: '/admin/v1/invitations' },
  adminListApiKeys: { method: 'GET', path: '/admin/v1/accounts/{id}/api-keys' },
  adminCreateApiKey: { method: 'POST', path: '/admin/v1/accounts/{id}/api-keys' },
  adminRevokeApiKey: { method: 'DELETE', path: '/admin/v1/api-keys/{keyId}' },
  adminRollApiKey: { method: 'POST', path: '/admin/v1/api-keys/{keyId}/roll' },
  adminPutSkill: { method: 'PUT', path: '/admin/v1/skills/{slug}' },
  adminDeleteSkill: { method: 'DELETE', path: '/admin/v1/skills/{slug}' },
  adminImportSkills: { method: 'POST', path: '/admin/v1/skills:import' },
  adminListItems: { method: 'GET', path: '/admin/v1/items' },
  adminListAuditEvents: { method: 'GET', path: '/admin/v1/audit-events' },
  adminCreatePrivateSkill: { method: 'POST', path: '/admin/v1/accounts/{id}/private-skills' },
  adminCreateWorkspace: { method: 'POST', path: '/admin/v1/workspaces' },
  adminSetWorkspaceMember: { method: 'PUT', path: '/admin/v1/workspaces/{id}/members/{accountId}' },
  adminRemoveWorkspaceMember: { method: 'DELETE', path: '/admin/v1/workspaces/{id}/members/{accountId}' },
  adminStartReindex: { method: 'POST', path: '/admin/v1/reindex' },
  adminGetReindex: { method: 'GET', path: '/admin/v1/reindex/{jobId}' },

  adminPublishRelease: { method: 'POST', path: '/admin/v1/skills/{slug}/versions' },
  adminYankRelease: { method: 'POST', path: '/admin/v1/skills/{slug}/versions/{version}:yank' },
  adminUnyankRelease: { method: 'POST', path: '/admin/v1/skills/{slug}/versions/{version}:unyank' },
  adminOverrideVerdict: { method: 'PUT', path: '/admin/v1/skills/{slug}/versions/{version}/override' },
  adminClearVerdictOverride: { method: 'DELETE', path: '/admin/v1/skills/{slug}/versions/{version}/override' },
  adminListPublishers: { method: 'GET', path: '/admin/v1/publishers' },
  adminSetPublisher: { method: 'PUT', path: '/admin/v1/publishers/{name}' },
  adminListReports: { method: 'GET', path: '/admin/v1/reports' },
  adminResolveReport: { method: 'POST', path: '/admin/v1/reports/{id}:resolve' },
  adminDismissReport: { method: 'POST', path: '/admin/v1/reports/{id}:dismiss' },
  adminListScanners: { method: 'GET', path: '/admin/v1/scanners' },
  adminCreateScanner: { method: 'POST', path: '/admin/v1/scanners' },
  adminRevokeScanner: { method: 'DELETE', path: '/admin/v1/scanners/{id}' },
} as const satisfies OperationTable;

export type AdminOperationName = keyof typeof ADMIN_OPERATIONS;

/** The one route a scanner credential opens (docs/trust.md). */
export const SCANNER_OPERATIONS = {
  recordSkillVersionVerdict: { method: 'POST', path: '/api/v1/skills/{slug}/versions/{version}/verdicts' },
} as const satisfies OperationTable;
