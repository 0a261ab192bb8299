/**
 * The workspace policy: every member reads it; owners and admins change it.
 * Saving replaces it whole, and the API re-evaluates every team entry at once.
 */
import { useState, type FormEvent } from 'react';
import { client } from '../api';
import { when } from '../format';
import { useLoad } from '../hooks';
import { canGovern } from '../roles';
import type { Role } from '../api';
import { ErrorMessage, Status, messageOf } from './form';
import { PolicyFields, policyOf } from './policy-fields';
import { WhenLoaded } from './states';

export function PolicyEditor({ workspaceId, role }: { workspaceId: string; role: Role }) {
  const loaded = useLoad(() => client.getWorkspacePolicy(workspaceId), workspaceId);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  const editor = canGovern(role);
  const answer = loaded.data;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStatus(undefined);
    setError(undefined);
    try {
      await client.setWorkspacePolicy(workspaceId, policyOf(new FormData(event.currentTarget)));
      setStatus('Policy saved: every team collection is checked against it now.');
      void loaded.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <section className="card" aria-labelledby="policy-title">
      <h2 id="policy-title">Policy</h2>
      <p className="hint">
        What the team&apos;s collections may hold and its searches may find.{' '}
        {answer && (answer.updatedAt ? `Last changed ${when(answer.updatedAt)}.` : 'No policy set yet: the defaults apply.')}
      </p>
      {!editor && <p className="notice">Only owners and admins change the policy; you can read it.</p>}
      <WhenLoaded loaded={loaded} what="the policy">
        {(answer) => (
          <form onSubmit={save} className="stacked" key={answer.updatedAt ?? 'default'} aria-label="Workspace policy">
            <fieldset disabled={!editor} className="plain">
              <PolicyFields policy={answer.policy} />
            </fieldset>
            {editor && (
              <button type="submit" className="primary">
                Save policy
              </button>
            )}
          </form>
        )}
      </WhenLoaded>
      <ErrorMessage message={error} />
      {status && <Status>{status}</Status>}
    </section>
  );
}
