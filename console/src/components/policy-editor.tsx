/**
 * The workspace policy: every member reads it; owners and admins change it.
 * Saving replaces it whole, and the API re-evaluates every team entry at once.
 */
import { client } from '../api';
import { when } from '../format';
import { useAction, useLoad } from '../hooks';
import { canGovern } from '../roles';
import type { Role } from '../api';
import { Outcome, submitTo } from './form';
import { PolicyFields, policyOf } from './policy-fields';
import { WhenLoaded } from './states';

export function PolicyEditor({ workspaceId, role }: { workspaceId: string; role: Role }) {
  const loaded = useLoad(() => client.getWorkspacePolicy(workspaceId), workspaceId);
  const editor = canGovern(role);
  const answer = loaded.data;
  const save = useAction(async (form: HTMLFormElement) => {
    await client.setWorkspacePolicy(workspaceId, policyOf(new FormData(form)));
    void loaded.reload();
    return 'Policy saved: every team collection is checked against it now.';
  });

  return (
    <section className="card" aria-labelledby="policy-title">
      <h2 id="policy-title">Policy</h2>
      <p className="hint">
        What the team&apos;s collections may hold and its searches may find.{' '}
        {answer &&
          (answer.updatedAt ? `Last changed ${when(answer.updatedAt)}.` : 'No policy set yet: the defaults apply.')}
      </p>
      {!editor && <p className="notice">Only owners and admins change the policy; you can read it.</p>}
      <WhenLoaded loaded={loaded} what="the policy">
        {(answer) => (
          <form
            onSubmit={submitTo(save.run)}
            className="stacked"
            key={answer.updatedAt ?? 'default'}
            aria-label="Workspace policy"
          >
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
      <Outcome of={save} />
    </section>
  );
}
