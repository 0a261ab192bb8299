/**
 * A fake collections-service that knows workspaces, their members and
 * their compiled search policies (docs/governance.md), answering as the
 * real one does: 404 "Workspace not found" to a non-member.
 */
import { randomUUID } from 'node:crypto';
import type { SearchPolicy } from '@skills/common';
import type { FakeAnswer, Harness } from './harness';

const NOT_FOUND: FakeAnswer = { status: 404, body: { error: 'Workspace not found' } };

export class FakeWorkspaces {
  readonly members = new Map<string, Set<string>>();
  readonly policies = new Map<string, SearchPolicy>();

  constructor(private readonly h: Harness) {
    h.collections.answer = (req, principal) => {
      const account = principal.kind === 'account' ? principal.accountId : '';
      const read = /^\/(?:api|internal)\/v1\/workspaces\/([^/]+)(\/search-policy)?$/.exec(req.path);
      if (req.method !== 'GET' || !read) return undefined;
      const id = read[1] as string;
      if (!this.members.get(id)?.has(account)) return NOT_FOUND;
      if (req.path.startsWith('/internal/'))
        return { status: 200, body: { data: { searchPolicy: this.policies.get(id) } } };
      return { status: 200, body: { data: { workspace: { id, name: 'Team', role: 'member' } } } };
    };
  }

  /** A new workspace of these members, whose policy allows only what `licenses` says. */
  create(memberIds: string[], licenses: string[] | null = ['mit']): string {
    const id = randomUUID();
    this.members.set(id, new Set(memberIds));
    this.setPolicy(id, licenses);
    return id;
  }

  setPolicy(id: string, licenses: string[] | null): SearchPolicy {
    const policy: SearchPolicy = {
      workspaceId: id,
      verdicts: ['clean'],
      verifiedPublishersOnly: false,
      publishers: null,
      licenses,
      types: null,
      deniedSlugs: [],
    };
    this.policies.set(id, policy);
    return policy;
  }

  /** The policy fetches that reached collections-service for this workspace. */
  fetches(id: string): number {
    return this.h.collections.received.filter((line) => line === `GET /internal/v1/workspaces/${id}/search-policy`)
      .length;
  }
}
