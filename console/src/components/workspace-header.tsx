/** A workspace's title card: its name, the caller's role and what it allows, "leave" (not for the last owner), and the page's notices. */
import type { Workspace } from '../api';
import { plural } from '../format';
import { ROLE_HELP } from '../roles';
import { ErrorMessage, Status } from './form';

export function WorkspaceHeader(props: {
  workspace: Workspace;
  lastOwner: boolean;
  onLeave(): void;
  created: boolean;
  notice?: string;
  error?: string;
}) {
  const { workspace, lastOwner } = props;
  return (
    <section className="card" aria-labelledby="workspace-title">
      <div className="title-row">
        <h1 id="workspace-title">{workspace.name}</h1>
        <span className={`badge role-${workspace.role}`}>{workspace.role}</span>
        <button
          type="button"
          className="push"
          disabled={lastOwner}
          onClick={props.onLeave}
          aria-describedby={lastOwner ? 'leave-help' : undefined}
        >
          Leave workspace
        </button>
      </div>
      <p className="hint">
        You are {workspace.role}: {ROLE_HELP[workspace.role]}. {plural(workspace.memberCount, 'member')}.
      </p>
      {lastOwner && (
        <p id="leave-help" className="hint">
          You are its only owner: make another member owner before leaving.
        </p>
      )}
      {props.created && <Status>Workspace created: you are its owner. Invite your team below.</Status>}
      {props.notice && <Status>{props.notice}</Status>}
      <ErrorMessage message={props.error} />
    </section>
  );
}
