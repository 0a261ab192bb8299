/** Previous / next between pages of a list, with where one is. */
import type { Pagination } from '../api';

export function Pager({
  pagination,
  onPage,
  label,
}: {
  pagination: Pagination;
  onPage(page: number): void;
  label: string;
}) {
  if (pagination.totalPages <= 1) return null;
  const { page, totalPages } = pagination;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {totalPages}
      </span>
      <button type="button" disabled={!pagination.hasMore} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
