/** Helpers of the governed-collection tests: a workspace with every role, its collections, its policy. */
import type { Principal } from '@skills/common';
import { ADMIN, account, type Harness } from './harness';
import { digestOf } from './releases';

export interface Team {
  ws: string;
  owner: Principal & { kind: 'account' };
  admin: Principal & { kind: 'account' };
  member: Principal & { kind: 'account' };
  viewer: Principal & { kind: 'account' };
}

export async function createTeam(h: Harness, name = 'Team'): Promise<Team> {
  const team = { owner: account(), admin: account(), member: account(), viewer: account() };
  const res = await h.call(ADMIN, 'post', '/admin/v1/workspaces').send({ name, ownerAccountId: team.owner.accountId });
  if (res.status !== 201) throw new Error(`workspace: ${res.status}`);
  const ws = res.body.data.workspace.id as string;
  for (const role of ['admin', 'member', 'viewer'] as const) {
    const put = await h.call(ADMIN, 'put', `/admin/v1/workspaces/${ws}/members/${team[role].accountId}`).send({ role });
    if (put.status !== 200) throw new Error(`member: ${put.status}`);
  }
  return { ws, ...team };
}

export const collectionsOf = (t: Team) => `/api/v1/workspaces/${t.ws}/collections`;

/** A new team collection holding `slugs` (each added by slug alone); its id. */
export async function teamCollection(h: Harness, t: Team, ...slugs: string[]): Promise<string> {
  const res = await h.call(t.member, 'post', collectionsOf(t)).send({ name: 'Pinned' });
  if (res.status !== 201) throw new Error(`collection: ${res.status}`);
  const id = res.body.data.collection.id as string;
  for (const slug of slugs) {
    const added = await h.call(t.member, 'patch', `${collectionsOf(t)}/${id}`).send({ skillSlug: slug });
    if (added.status !== 200) throw new Error(`add ${slug}: ${added.status} ${JSON.stringify(added.body)}`);
  }
  return id;
}

export async function putPolicy(h: Harness, t: Team, policy: object) {
  return h.call(t.owner, 'put', `/api/v1/workspaces/${t.ws}/policy`).send(policy);
}

/** The pin an entry shows for `version` of the test artifacts (releases.ts releaseBody). */
export function pinOf(version: string, verdict = 'unscanned', extra: object = {}) {
  return { version, digest: digestOf(`${version}-artifact`), verdict, yanked: false, pinnedVerdict: verdict, ...extra };
}

export async function entryOf(h: Harness, t: Team, id: string, slug: string) {
  const res = await h.call(t.member, 'get', `${collectionsOf(t)}/${id}`);
  return (res.body.data.collection.skills as Array<{ slug: string }>).find((e) => e.slug === slug) as
    Record<string, unknown> | undefined;
}
