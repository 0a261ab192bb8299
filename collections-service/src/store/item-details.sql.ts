/**
 * How an item's registry details (common/src/events.ts ItemDetails) sit in
 * `collections.items`: one column each, the release in `release_version`
 * (`version` counts states). Shared by every query that shows an item.
 */
import type { ItemDetails } from '@skills/common';

/** Select list over `collections.items` aliased `alias`; downloads as float8, so both drivers return a number. */
export function detailsColumns(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}publisher, ${a}release_version, ${a}license, ${a}repository_url, ${a}homepage_url, coalesce(${a}downloads, 0)::float8 AS downloads`;
}

export interface DetailsRow {
  publisher: string | null;
  release_version: string | null;
  license: string | null;
  repository_url: string | null;
  homepage_url: string | null;
  downloads: number | string;
}

export function detailsOfRow(row: DetailsRow): ItemDetails {
  return {
    publisher: row.publisher,
    version: row.release_version,
    license: row.license,
    repositoryUrl: row.repository_url,
    homepageUrl: row.homepage_url,
    downloads: Number(row.downloads),
  };
}

/** The same details as a jsonb object, for events built in SQL (outbox.writer.ts). */
export function detailsJsonb(alias: string): string {
  const a = `${alias}.`;
  return `jsonb_build_object('publisher', ${a}publisher, 'version', ${a}release_version, 'license', ${a}license,
      'repositoryUrl', ${a}repository_url, 'homepageUrl', ${a}homepage_url, 'downloads', coalesce(${a}downloads, 0)::float8)`;
}
