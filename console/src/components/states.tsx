/** The three states every list shows the same way: loading, the API's error, and empty with what to do next. */
import type { ReactNode } from 'react';

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
