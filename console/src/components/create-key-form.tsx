/** Create a key: a name, its scopes (checkboxes in a fieldset), when it expires and the workspace it is bound to. */
import { client, type NewApiKey, type Scope } from '../api';
import { useAction } from '../hooks';
import { SCOPES } from '../labels';
import { ErrorMessage, Field, submitTo } from './form';
import { WorkspaceBinding } from './key-workspace';

const EXPIRY = [
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 365 days' },
  { value: 'never', label: 'Never' },
];

/**
 * `maxLifetimeDays`: the server's longest lifetime (null: keys may also never expire), so only lifetimes it
 * accepts are offered; `guard` asks for the password again when the server wants a recent sign-in.
 */
export function CreateKeyForm(props: {
  onCreated(key: NewApiKey): void;
  maxLifetimeDays: number | null | undefined;
  guard<T>(action: () => Promise<T>): Promise<T>;
}) {
  const { onCreated, maxLifetimeDays, guard } = props;
  // undefined until the list answers: "never" only once the server says keys may never expire
  const choices = EXPIRY.filter((e) =>
    e.value === 'never' ? maxLifetimeDays === null : maxLifetimeDays == null || Number(e.value) <= maxLifetimeDays,
  );
  const create = useAction(async (formElement: HTMLFormElement) => {
    const form = new FormData(formElement);
    const checked = form.getAll('scopes').map(String);
    const scopes: Scope[] = SCOPES.map((s) => s.scope).filter((s) => checked.includes(s));
    if (scopes.length === 0) throw new Error('Choose at least one scope.');
    const expiry = String(form.get('expiry'));
    const workspaceId = String(form.get('workspaceId') ?? '');
    const input = {
      name: String(form.get('name')).trim(),
      scopes,
      expiresInDays: expiry === 'never' ? null : Number(expiry),
      ...(workspaceId ? { workspaceId } : {}),
    };
    const apiKey = await guard(() => client.createOwnApiKey(input));
    formElement.reset();
    onCreated(apiKey);
  });

  return (
    <form onSubmit={submitTo(create.run)} className="create-key">
      <Field
        label="Key name"
        name="name"
        required
        maxLength={120}
        placeholder="e.g. ci-deploy"
        hint="Say where the key is used, so you know which one to revoke."
      />
      <fieldset>
        <legend>Scopes</legend>
        {SCOPES.map(({ scope, label, help }) => (
          <div className="check" key={scope}>
            <input
              type="checkbox"
              id={`scope-${scope}`}
              name="scopes"
              value={scope}
              defaultChecked={scope.endsWith(':read')}
              aria-describedby={`scope-${scope}-help`}
            />
            <label htmlFor={`scope-${scope}`}>{label}</label>
            <span id={`scope-${scope}-help`} className="hint">
              {help}
            </span>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="expiry">Expires</label>
        <select id="expiry" name="expiry" defaultValue="90">
          {choices.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </select>
      </div>
      <WorkspaceBinding />
      <ErrorMessage message={create.error} />
      <button type="submit" className="primary" disabled={create.busy}>
        {create.busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
