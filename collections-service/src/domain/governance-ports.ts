/** The seams of governed collections: the workspace policy and the workspace event log. */
import type { PolicyRecord, WorkspacePolicy } from './policy';

export interface WorkspacePolicyRepository {
  /** the stored policy; null while the workspace has none (the defaults apply) */
  find(workspaceId: string): Promise<PolicyRecord | null>;
  /** replaces the policy; the record after it */
  put(workspaceId: string, policy: WorkspacePolicy, updatedBy: string): Promise<PolicyRecord>;
}

/** `change` of a `collection.changed` event. */
export type CollectionChange = 'created' | 'updated' | 'pins-updated' | 'deleted';

/** What a workspace's webhooks are told (docs/governance.md "Signed webhooks"). */
export type WorkspaceEvent =
  | {
      workspaceId: string;
      type: 'collection.changed';
      data: { collectionId: string; name: string; change: CollectionChange };
    }
  | { workspaceId: string; type: 'policy.changed'; data: { policy: WorkspacePolicy } }
  /** derived from the item log by the webhook watches (src/webhooks/): their data is theirs to shape */
  | { workspaceId: string; type: 'release.verdict_changed' | 'collection.drifted'; data: object };

/**
 * Appends to `collections.workspace_events`, inside the caller's
 * transaction: the event commits or rolls back with the change it records.
 */
export interface WorkspaceEventStore {
  /** the event's id (what receivers deduplicate on) */
  record(event: WorkspaceEvent): Promise<string>;
}
