/** A path router for the few pages of the console (history API, no library). */
import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const BASE = '/console';
const listeners = new Set<() => void>();

/** The page's path under /console ('/' for the profile). */
export function currentPage(): string {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return path === '' ? '/' : path;
}

export function navigate(page: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${page}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** Re-renders on every navigation (in-app or back/forward) with `read()`'s new value. */
function useNavigationValue<T>(read: () => T): T {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const update = () => setValue(read());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, [read]);
  return value;
}

export function usePage(): string {
  return useNavigationValue(currentPage);
}

const currentSearch = () => window.location.search;

/** The query string of the address (`?q=…`), which the catalog keeps its state in. */
export function useSearch(): URLSearchParams {
  return new URLSearchParams(useNavigationValue(currentSearch));
}

/** Replaces the query string without a history entry (typing in the search box), telling the listeners. */
export function replaceSearch(params: URLSearchParams): void {
  const query = params.toString();
  window.history.replaceState(null, '', `${window.location.pathname}${query ? `?${query}` : ''}`);
  for (const listener of listeners) listener();
}

/** The secret a link carries in its fragment (`#token=…`), read once and removed from the address bar and history. */
export function takeFragment(name: string): string | undefined {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const value = params.get(name) ?? undefined;
  if (value !== undefined) window.history.replaceState(null, '', window.location.pathname);
  return value;
}

/** An in-app link: a real <a href> (keyboard, new tab), handled without a page load. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={`${BASE}${to}`} onClick={onClick} {...rest} />;
}
