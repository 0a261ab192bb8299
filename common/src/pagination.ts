/**
 * Pages the way search pages (docs/api.md): `page` from 1, `limit` 1..50
 * (default 20), and `{ page, limit, total, totalPages, hasMore }` beside the
 * results. Search and the collection lists share these, so a client pages
 * them all alike.
 */
import Joi from 'joi';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasMore: boolean;
}

export interface PageRequest {
  page: number;
  limit: number;
}

/** The joi fields of `page` and `limit`, defaults included. */
export const pageQueryFields = {
  limit: Joi.number().integer().min(1).max(50).default(20),
  page: Joi.number().integer().min(1).default(1),
};

export function paginationOf({ page, limit }: PageRequest, total: number): Pagination {
  return { page, limit, total, totalPages: Math.ceil(total / limit), hasMore: page * limit < total };
}
