/** Helpers of the release, verdict and publisher tests: digests, publishing, and the events an item wrote. */
import { createHash, randomUUID } from 'node:crypto';
import type { CatalogItemState, Principal } from '@skills/common';
import { ADMIN, type Harness } from './harness';

/** The digest of an artifact named `name`, as a publisher's pipeline computes it. */
export function digestOf(name: string): string {
  return `sha256:${createHash('sha256').update(name).digest('hex')}`;
}

export function scanner(name: string): Principal & { kind: 'scanner' } {
  return { kind: 'scanner', scannerId: randomUUID(), name };
}

export function releaseBody(version: string, artifact = `${version}-artifact`, extra: Record<string, unknown> = {}) {
  return {
    version,
    digest: digestOf(artifact),
    source: { repository: 'https://github.com/acme/pdf-skill', ref: `v${version}` },
    ...extra,
  };
}

export async function publish(h: Harness, slug: string, version: string, artifact?: string) {
  return h.call(ADMIN, 'post', `/admin/v1/skills/${slug}/versions`).send(releaseBody(version, artifact));
}

/** Publishes or fails the test. */
export async function published(h: Harness, slug: string, ...versions: string[]): Promise<void> {
  for (const version of versions) {
    const res = await publish(h, slug, version);
    if (res.status !== 201) throw new Error(`publish ${slug} ${version}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

export async function scan(
  h: Harness,
  slug: string,
  version: string,
  by: string,
  verdict: string,
  summary = `${by} says ${verdict}`,
) {
  return h.call(scanner(by), 'post', `/api/v1/skills/${slug}/versions/${version}/verdicts`).send({ verdict, summary });
}

/** The item states the outbox holds for the item with `slug`, oldest first. */
export async function eventsOf(h: Harness, slug: string): Promise<CatalogItemState[]> {
  const rows = await h.rows<{ event: { item: CatalogItemState } | string }>(
    `SELECT o.event FROM collections.outbox o JOIN collections.items i ON o.key = i.id::text WHERE i.slug = $1 ORDER BY o.id`,
    [slug],
  );
  return rows.map(
    (r) => (typeof r.event === 'string' ? (JSON.parse(r.event) as { item: CatalogItemState }) : r.event).item,
  );
}

export async function lastEventOf(h: Harness, slug: string): Promise<CatalogItemState> {
  const events = await eventsOf(h, slug);
  const last = events.at(-1);
  if (!last) throw new Error(`no event for ${slug}`);
  return last;
}
