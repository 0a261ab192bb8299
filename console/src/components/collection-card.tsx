/** A collection in a list: its name (to its page), description, size and first skills. */
import type { Collection } from '../api';
import { plural } from '../format';
import { Link } from '../router';

export function CollectionCard({ collection, to }: { collection: Collection; to: string }) {
  const more = collection.skillCount - collection.skills.length;
  return (
    <li className="collection-card">
      <h3>
        <Link to={to}>{collection.name}</Link>
      </h3>
      {collection.description && <p>{collection.description}</p>}
      <p className="hint">
        {plural(collection.skillCount, 'skill')}
        {collection.skills.length > 0 &&
          `: ${collection.skills.map((s) => s.name).join(', ')}${more > 0 ? ` and ${more} more` : ''}`}
      </p>
    </li>
  );
}
