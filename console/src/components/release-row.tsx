/** One release in the list: version, verdict, date, digest, source and yank; its scans and history on demand. */
import { useId, useState } from 'react';
import type { Release } from '../api';
import { day } from '../format';
import { T } from '../messages';
import { Digest } from './digest';
import { ReleaseDetails } from './release-details';
import { VerdictBadge, YankedBadge } from './trust-badges';

/** "github.com/acme/pdf-skill" from its URL: the part a person recognises. */
function repositoryName(url: string): string {
  try {
    const { host, pathname } = new URL(url);
    return `${host}${pathname}`.replace(/\/$/, '');
  } catch {
    return url;
  }
}

export function ReleaseRow({ slug, release, latest }: { slug: string; release: Release; latest: boolean }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const titleId = `${detailsId}-title`;
  return (
    <li className={release.yanked ? 'release is-yanked' : 'release'} aria-labelledby={titleId}>
      <div className="release-head">
        <h3 id={titleId}>{T.version(release.version)}</h3>
        {latest && <span className="badge latest">{T.latestVersion}</span>}
        <VerdictBadge verdict={release.verdict} of={release.version} />
        {release.yanked && <YankedBadge reason={release.yanked.reason} />}
      </div>
      <dl className="release-facts">
        <dt>{T.published}</dt>
        <dd>{day(release.publishedAt)}</dd>
        <dt>{T.digest}</dt>
        <dd>
          <Digest digest={release.digest} version={release.version} />
        </dd>
        <dt>{T.source}</dt>
        <dd>
          <a href={release.source.repository} target="_blank" rel="noopener noreferrer">
            {repositoryName(release.source.repository)}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>{' '}
          @ <code>{release.source.ref}</code>
        </dd>
      </dl>
      <button
        type="button"
        className="link-button"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen(!open)}
      >
        {open ? T.hideDetails(release.version) : T.details(release.version)}
      </button>
      <div id={detailsId}>{open && <ReleaseDetails slug={slug} version={release.version} />}</div>
    </li>
  );
}
