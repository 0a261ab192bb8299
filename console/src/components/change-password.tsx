/** Change the password from the profile: the current one, a new one, and whether the API keys go too. */
import { useState, type FormEvent } from 'react';
import { client } from '../api';
import { ErrorMessage, Field, Status, messageOf } from './form';

export function ChangePasswordForm() {
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = new FormData(form);
    setError(undefined);
    setStatus(undefined);
    try {
      const { revokedApiKeys } = await client.changePassword({
        currentPassword: String(input.get('current')),
        newPassword: String(input.get('new')),
        revokeApiKeys: input.get('revoke') === 'on',
      });
      form.reset();
      setStatus(
        `Password changed; every other session is signed out${revokedApiKeys > 0 ? ` and ${revokedApiKeys} API key${revokedApiKeys === 1 ? ' was' : 's were'} revoked` : ''}.`,
      );
    } catch (err) {
      setError(messageOf(err));
    }
  }

  return (
    <form onSubmit={submit}>
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
      <ErrorMessage message={error} />
      <button type="submit" className="primary">
        Change password
      </button>
      {status && <Status>{status}</Status>}
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
