export { SkillsClient, type SkillsClientOptions } from './skills-client';
export { ApiError } from './api-error';
export { OPERATIONS, expandPath, type OperationName } from './operations';
export type * from './types';
