/** Change the password from the profile: the current one, a new one, and whether the API keys go too. */
import { client } from '../api';
import { useAction } from '../hooks';
import { ErrorMessage, Field, Status, submitTo } from './form';

export function ChangePasswordForm() {
  const change = useAction(async (form: HTMLFormElement) => {
    const input = new FormData(form);
    const { revokedApiKeys } = await client.changePassword({
      currentPassword: String(input.get('current')),
      newPassword: String(input.get('new')),
      revokeApiKeys: input.get('revoke') === 'on',
    });
    form.reset();
    const keys =
      revokedApiKeys > 0 ? ` and ${revokedApiKeys} API key${revokedApiKeys === 1 ? ' was' : 's were'} revoked` : '';
    return `Password changed; every other session is signed out${keys}.`;
  });

  return (
    <form onSubmit={submitTo(change.run)}>
      <Field label="Current password" name="current" type="password" autoComplete="current-password" required />
      <Field
        label="New password"
        name="new"
        type="password"
        autoComplete="new-password"
        minLength={12}
        required
        hint="At least 12 characters; every other session of your account is signed out."
      />
      <RevokeKeysCheck />
      <ErrorMessage message={change.error} />
      <button type="submit" className="primary">
        Change password
      </button>
      {change.status && <Status>{change.status}</Status>}
    </form>
  );
}

/** The choice a password change or reset offers: keys are kept unless the person says otherwise. */
export function RevokeKeysCheck() {
  return (
    <div className="check">
      <input type="checkbox" id="revoke-keys" name="revoke" aria-describedby="revoke-keys-help" />
      <label htmlFor="revoke-keys">Also revoke all my API keys</label>
      <span id="revoke-keys-help" className="hint">
        If someone else may have used your account, their keys stop working at once.
      </span>
    </div>
  );
}
