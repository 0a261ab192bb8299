/** The catalog's filters beside the results: category and type facets, the trust filters, the active tags. */
import type { FacetValue } from '../api';
import { withoutTag, type SearchQuery } from '../catalog-query';
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
  change(edit: Partial<SearchQuery>): void;
}) {
  return (
    <aside className="card filters" aria-label="Filters">
      <h2>Filters</h2>
      <FacetGroup
        title="Category"
        values={facets?.category}
        active={query.category}
        onToggle={(category) => change({ category })}
      />
      <FacetGroup
        title="Type"
        values={facets?.type}
        active={query.type}
        onToggle={(type) => change({ type: type as SearchQuery['type'] })}
      />
      <TrustFilters
        trust={query.trust}
        verifiedOnly={query.verifiedPublisher ?? false}
        trustFacet={facets?.trust}
        verifiedFacet={facets?.verifiedPublisher}
        onTrust={(trust) => change({ trust })}
        onVerified={(verifiedPublisher) => change({ verifiedPublisher })}
      />
      <ActiveTags tags={query.tags ?? []} onRemove={(tag) => change({ tags: withoutTag(query.tags, tag) })} />
    </aside>
  );
}
