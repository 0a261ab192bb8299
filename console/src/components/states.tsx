/** The states every loaded page and list shows the same way: loading, the API's error (with "try again" where that may help), and empty with what to do next. */
import type { ReactNode } from 'react';
import type { Loaded } from '../hooks';

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading-line" role="status">
      Loading {what}…
    </p>
  );
}

/** The API's message, with a way to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="load-error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

/**
 * What `useLoad` loaded, shown the one way: the error (with "Try again"
 * unless the API refused the request itself) above the last answer (a
 * failed reload keeps what was shown), "Loading …" until
 * the first answer, `empty` in place of an empty answer, else `children`.
 * `unavailable` (a page's "not available" title) goes before the error when
 * nothing was ever loaded.
 */
export function WhenLoaded<T>(props: {
  loaded: Loaded<T>;
  what: string;
  unavailable?: ReactNode;
  isEmpty?(data: T): boolean;
  empty?: ReactNode;
  children(data: T): ReactNode;
}) {
  const { data, error, retryable, reload } = props.loaded;
  const blank = data !== undefined && props.isEmpty?.(data) === true;
  return (
    <>
      {error && data === undefined && props.unavailable}
      {error && <LoadError message={error} onRetry={retryable ? () => void reload() : undefined} />}
      {data === undefined ? !error && <Loading what={props.what} /> : blank ? props.empty : props.children(data)}
    </>
  );
}
