/**
 * The catalog's trust filters: which verdicts to show (the server's safe
 * default, clean only, or suspicious too; malicious never) and verified
 * publishers only, each with the counts of the `trust` and
 * `verifiedPublisher` facets.
 */
import type { FacetValue } from '../api';
import type { TrustChoice } from '../catalog-query';
import { count } from '../format';
import { T, type Verdict } from '../messages';
import { VerdictBadge } from './trust-badges';

const CHOICES: ReadonlyArray<{ value: TrustChoice | ''; label: string }> = [
  { value: '', label: T.trustDefault },
  { value: 'clean', label: T.trustClean },
  { value: 'any', label: T.trustAny },
];

const VERDICTS = new Set<string>(['clean', 'suspicious', 'unscanned']);

export function TrustFilters(props: {
  trust: TrustChoice | undefined;
  verifiedOnly: boolean;
  trustFacet: FacetValue[] | undefined;
  verifiedFacet: FacetValue[] | undefined;
  onTrust(value: TrustChoice | undefined): void;
  onVerified(on: boolean): void;
}) {
  const counted = (props.trustFacet ?? []).filter((v) => VERDICTS.has(v.value) && v.count > 0);
  const verified = props.verifiedFacet?.find((v) => v.value === 'true')?.count;
  return (
    <>
      <fieldset className="facet trust-filter">
        <legend>{T.trustLegend}</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className="check">
            <input
              type="radio"
              name="trust"
              value={choice.value}
              checked={(props.trust ?? '') === choice.value}
              onChange={() => props.onTrust(choice.value || undefined)}
            />
            <span>{choice.label}</span>
          </label>
        ))}
        <p className="hint">{T.trustHint}</p>
        {counted.length > 0 && (
          <ul className="trust-counts" aria-label={T.trustCounts}>
            {counted.map((v) => (
              <li key={v.value}>
                <VerdictBadge verdict={v.value as Verdict} /> <span className="facet-count">{count(v.count)}</span>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className="facet">
        <label className="check">
          <input type="checkbox" checked={props.verifiedOnly} onChange={(e) => props.onVerified(e.target.checked)} />
          <span>{T.verifiedOnly}</span>
        </label>
        {verified !== undefined && !props.verifiedOnly && <p className="hint">{T.verifiedCount(verified)}</p>}
      </div>
    </>
  );
}
