/**
 * Whether an account is a member of a workspace, asked of
 * collections-service as that account (it answers a non-member exactly like
 * a missing workspace): binding a key to a workspace needs it.
 */
import { NotFoundError, UpstreamError, isUuid } from '@skills/common';
import { workspacePath, type Caller, type CollectionsCalls } from './collections-service';

export class WorkspaceMembership {
  constructor(private readonly calls: CollectionsCalls) {}

  /** Passes for a member of any role; 404 "Workspace not found" otherwise (an id that is not a uuid is not asked about). */
  async requireMember(caller: Caller, workspaceId: string): Promise<void> {
    if (!isUuid(workspaceId)) throw new NotFoundError('workspace.notFound');
    const read = await this.calls.call(caller, 'GET', workspacePath(workspaceId));
    if (read.ok) return;
    if (read.answer.status === 404 || read.answer.status === 403) throw new NotFoundError('workspace.notFound');
    throw new UpstreamError(502, 'upstream.badGateway');
  }
}
