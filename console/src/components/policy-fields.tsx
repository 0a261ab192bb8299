/**
 * The fields of a workspace policy, filled from the policy in force. A list
 * left empty means "any" (null) where the API has that meaning; lists take
 * one value a line or comma-separated.
 */
import type { WorkspacePolicy } from '../api';

const VERDICTS = [
  { value: 'clean', label: 'Clean only' },
  { value: 'unscanned', label: 'Clean or not scanned yet' },
  { value: 'suspicious', label: 'Anything not malicious (the default)' },
] as const;

const TYPES = ['skill', 'plugin'] as const;

function ListField({
  name,
  label,
  hint,
  values,
}: {
  name: string;
  label: string;
  hint: string;
  values: string[] | null;
}) {
  return (
    <div className="field">
      <label htmlFor={`policy-${name}`}>{label}</label>
      <textarea
        id={`policy-${name}`}
        name={name}
        rows={2}
        defaultValue={(values ?? []).join('\n')}
        aria-describedby={`policy-${name}-hint`}
      />
      <p id={`policy-${name}-hint`} className="hint">
        {hint}
      </p>
    </div>
  );
}

export function PolicyFields({ policy }: { policy: WorkspacePolicy }) {
  return (
    <>
      <div className="field">
        <label htmlFor="policy-minimumVerdict">Minimum security verdict</label>
        <select id="policy-minimumVerdict" name="minimumVerdict" defaultValue={policy.minimumVerdict}>
          {VERDICTS.map((v) => (
            <option key={v.value} value={v.value}>
              {v.label}
            </option>
          ))}
        </select>
      </div>
      <div className="check">
        <input
          type="checkbox"
          id="policy-verified"
          name="verifiedPublishersOnly"
          defaultChecked={policy.verifiedPublishersOnly}
        />
        <label htmlFor="policy-verified">Verified publishers only</label>
      </div>
      <fieldset>
        <legend>Allowed types</legend>
        {TYPES.map((t) => (
          <div className="check" key={t}>
            <input
              type="checkbox"
              id={`policy-type-${t}`}
              name="allowedTypes"
              value={t}
              defaultChecked={!policy.allowedTypes || policy.allowedTypes.includes(t)}
            />
            <label htmlFor={`policy-type-${t}`}>{t === 'skill' ? 'Skills' : 'Plugins'}</label>
          </div>
        ))}
      </fieldset>
      <ListField
        name="allowedLicenses"
        label="Allowed licences"
        hint="SPDX identifiers (MIT, Apache-2.0), one a line; empty: any licence."
        values={policy.allowedLicenses}
      />
      <ListField
        name="allowedPublishers"
        label="Allowed publishers"
        hint="One a line; empty: any publisher."
        values={policy.allowedPublishers}
      />
      <ListField
        name="deniedSlugs"
        label="Denied skills"
        hint="Slugs refused whatever else they are, one a line."
        values={policy.deniedSlugs}
      />
    </>
  );
}

const list = (text: FormDataEntryValue | null): string[] => [
  ...new Set(
    String(text ?? '')
      .split(/[\n,]/)
      .map((v) => v.trim())
      .filter(Boolean),
  ),
];

/** The policy the form says: an empty allow-list is "any" (null), both types checked is "any". */
export function policyOf(form: FormData): WorkspacePolicy {
  const checked = form.getAll('allowedTypes');
  const types = TYPES.filter((t) => checked.includes(t));
  const allowed = (name: string) => {
    const values = list(form.get(name));
    return values.length ? values : null;
  };
  return {
    minimumVerdict: String(form.get('minimumVerdict')) as WorkspacePolicy['minimumVerdict'],
    verifiedPublishersOnly: form.get('verifiedPublishersOnly') !== null,
    allowedTypes: types.length === TYPES.length ? null : types,
    allowedLicenses: allowed('allowedLicenses'),
    allowedPublishers: allowed('allowedPublishers'),
    deniedSlugs: list(form.get('deniedSlugs')),
  };
}
