export { SkillsClient, type SkillsClientOptions } from './skills-client';
export { SessionClient, type SessionClientOptions } from './session-client';
export { ApiError } from './api-error';
export { ADMIN_OPERATIONS, SkillsAdminClient, type AdminOperationName, type SkillsAdminClientOptions } from './admin-client';
export { OPERATIONS, expandPath, type OperationName } from './operations';
export type * from './types';
export type * from './governance-types';
export type * from './session-types';
