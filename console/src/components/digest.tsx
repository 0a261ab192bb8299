/** A release's digest: short on screen, the full `sha256:…` in its title, copied whole by its button and shown once copied. */
import { useCopy } from '../hooks';
import { T } from '../messages';

/** "sha256:9f86d081…0f00a08": enough to compare by eye, short enough for a row. */
export function shortDigest(digest: string): string {
  const [algorithm, hex = ''] = digest.split(':');
  return hex.length > 20 ? `${algorithm}:${hex.slice(0, 12)}…${hex.slice(-7)}` : digest;
}

export function Digest({ digest, version }: { digest: string; version: string }) {
  const [said, copy] = useCopy();
  return (
    <span className="digest">
      <code title={digest}>{shortDigest(digest)}</code>
      <button
        type="button"
        className="small"
        onClick={() => copy(digest, T.copied(digest), T.copyRefused(digest))}
        aria-label={T.copyDigest(version)}
      >
        {T.copy}
      </button>
      <span role="status" className="copied">
        {said}
      </span>
    </span>
  );
}
