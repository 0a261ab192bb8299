/** An item's releases, newest first, a page at a time; yanked ones included and marked. */
import { useState } from 'react';
import { client } from '../api';
import { useLoad } from '../hooks';
import { T } from '../messages';
import { Pager } from './pagination';
import { ReleaseRow } from './release-row';
import { Empty, WhenLoaded } from './states';

export function Releases({ slug, latestVersion }: { slug: string; latestVersion: string | null | undefined }) {
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => client.listSkillVersionsPage(slug, { limit: 10, page }), `${slug}#${page}`);
  const onPage = (next: number) => {
    setPage(next);
    document.getElementById('releases-title')?.focus();
  };
  return (
    <section className="releases" aria-labelledby="releases-title" aria-busy={loaded.loading}>
      <h2 id="releases-title" tabIndex={-1}>
        {T.releases}
      </h2>
      <WhenLoaded
        loaded={loaded}
        what={T.loadingReleases}
        isEmpty={(d) => d.versions.length === 0}
        empty={<Empty title={T.noReleases} />}
      >
        {(answer) => (
          <>
            <ol className="release-list">
              {answer.versions.map((release) => (
                <ReleaseRow
                  key={release.version}
                  slug={slug}
                  release={release}
                  latest={release.version === latestVersion}
                />
              ))}
            </ol>
            <Pager pagination={answer.pagination} onPage={onPage} label={T.releasePages} />
          </>
        )}
      </WhenLoaded>
    </section>
  );
}
