/** Which page a signed-in person sees at each path, and the title of each (for the tab and screen readers). */
import type { ReactNode } from 'react';
import type { Account } from './api';
import { ApiKeysPage } from './pages/api-keys';
import { CatalogPage } from './pages/catalog';
import { CollectionPage } from './pages/collection';
import { CollectionsPage } from './pages/collections';
import { ProfilePage } from './pages/profile';
import { SkillPage } from './pages/skill';
import { TeamCollectionPage } from './pages/team-collection';
import { WorkspacePage } from './pages/workspace';
import { WorkspacesPage } from './pages/workspaces';
import { PERSONAL_RIGHTS } from './roles';

/** The sections of the navigation, by the first segment of their paths. */
export const SECTIONS = [
  { to: '/catalog', label: 'Catalog' },
  { to: '/collections', label: 'Collections' },
  { to: '/workspaces', label: 'Workspaces' },
  { to: '/keys', label: 'API keys' },
  { to: '/', label: 'Profile' },
] as const;

/** The navigation entry a path belongs to; none for the pages outside it (an invitation). */
export function sectionOf(page: string): string | undefined {
  if (page === '/') return '/';
  return SECTIONS.find((s) => s.to !== '/' && (page === s.to || page.startsWith(`${s.to}/`)))?.to;
}

const decode = (segment: string | undefined) => {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return segment ?? '';
  }
};

/** The page and its title; `undefined` for paths a signed-in person has no page at (they get the profile). */
export function signedInPage(page: string, account: Account): { title: string; content: ReactNode } | undefined {
  const [, first, second, third, fourth] = page.split('/');
  if (first === 'catalog') {
    if (second) return { title: decode(second), content: <SkillPage key={second} slug={decode(second)} /> };
    return { title: 'Catalog', content: <CatalogPage /> };
  }
  if (first === 'collections') {
    if (second) {
      return {
        title: 'Collection',
        content: (
          <CollectionPage
            key={second}
            scope={{ kind: 'personal' }}
            id={second}
            back={{ to: '/collections', label: 'Your collections' }}
            rights={() => PERSONAL_RIGHTS}
          />
        ),
      };
    }
    return { title: 'Collections', content: <CollectionsPage /> };
  }
  if (first === 'workspaces') {
    if (second && third === 'collections' && fourth) {
      return {
        title: 'Team collection',
        content: <TeamCollectionPage key={fourth} workspaceId={second} id={fourth} me={account.id} />,
      };
    }
    if (second) return { title: 'Workspace', content: <WorkspacePage key={second} id={second} me={account.id} /> };
    return { title: 'Workspaces', content: <WorkspacesPage /> };
  }
  if (first === 'keys') return { title: 'API keys', content: <ApiKeysPage account={account} /> };
  if (page === '/') return { title: 'Profile', content: <ProfilePage account={account} /> };
  return undefined;
}
