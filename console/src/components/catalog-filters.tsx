/** The catalog's filters beside the results: category and type facets, the trust filters, the active tags. */
import type { FacetValue } from '../api';
import { removeTag, setParam, type SearchQuery, type TrustChoice } from '../catalog-query';
import { ActiveTags, FacetGroup } from './facets';
import { TrustFilters } from './trust-filters';

type Facets = Partial<Record<'category' | 'type' | 'trust' | 'verifiedPublisher', FacetValue[]>>;

/** `change` edits the address's query (and goes back to page 1). */
export function CatalogFilters({
  query,
  facets,
  change,
}: {
  query: SearchQuery;
  facets: Facets | undefined;
  change(edit: (p: URLSearchParams) => void): void;
}) {
  return (
    <aside className="card filters" aria-label="Filters">
      <h2>Filters</h2>
      <FacetGroup title="Category" values={facets?.category} active={query.category} onToggle={(v) => change((p) => setParam(p, 'category', v))} />
      <FacetGroup title="Type" values={facets?.type} active={query.type} onToggle={(v) => change((p) => setParam(p, 'type', v))} />
      <TrustFilters
        trust={query.trust}
        verifiedOnly={query.verifiedPublisher ?? false}
        trustFacet={facets?.trust}
        verifiedFacet={facets?.verifiedPublisher}
        onTrust={(v?: TrustChoice) => change((p) => setParam(p, 'trust', v))}
        onVerified={(on) => change((p) => setParam(p, 'verifiedPublisher', on ? 'true' : undefined))}
      />
      <ActiveTags tags={query.tags ?? []} onRemove={(tag) => change((p) => removeTag(p, tag))} />
    </aside>
  );
}
