/** "Add to collection" where items are shown: the dialog, and a notice of what was added linking to its collection. */
import { useState, type ReactNode } from 'react';
import type { CatalogItem } from '../api';
import { Link } from '../router';
import { AddToCollection, type Added } from './add-to-collection';
import { Status } from './form';

export interface AddingToCollection {
  /** opens the dialog for this item */
  add(item: CatalogItem): void;
  /** what was added last and where, or nothing */
  notice: ReactNode;
  /** the dialog, to render once in the page */
  dialog: ReactNode;
}

export function useAddToCollection(): AddingToCollection {
  const [adding, setAdding] = useState<CatalogItem>();
  const [added, setAdded] = useState<Added>();
  return {
    add: setAdding,
    notice: added && (
      <Status>
        {added.message} <Link to={added.page}>Open the collection</Link>
      </Status>
    ),
    dialog: (
      <AddToCollection
        item={adding}
        onClose={() => setAdding(undefined)}
        onAdded={(done) => {
          setAdding(undefined);
          setAdded(done);
        }}
      />
    ),
  };
}
