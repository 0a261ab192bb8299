/** An item's releases, newest first, a page at a time; yanked ones included and marked. */
import { useState } from 'react';
import { client } from '../api';
import { useLoad } from '../hooks';
import { T } from '../messages';
import { Pager } from './pagination';
import { ReleaseRow } from './release-row';
import { Empty, LoadError, Loading } from './states';

export function Releases({ slug, latestVersion }: { slug: string; latestVersion: string | null | undefined }) {
  const [page, setPage] = useState(1);
  const loaded = useLoad(() => client.listSkillVersionsPage(slug, { limit: 10, page }), `${slug}#${page}`);
  const answer = loaded.data;
  const onPage = (next: number) => {
    setPage(next);
    document.getElementById('releases-title')?.focus();
  };
  return (
    <section className="releases" aria-labelledby="releases-title" aria-busy={loaded.loading}>
      <h2 id="releases-title" tabIndex={-1}>
        {T.releases}
      </h2>
      {loaded.error && <LoadError message={loaded.error} onRetry={loaded.reload} />}
      {!answer && !loaded.error && <Loading what={T.loadingReleases} />}
      {answer && answer.versions.length === 0 && <Empty title={T.noReleases} />}
      {answer && answer.versions.length > 0 && (
        <ol className="release-list">
          {answer.versions.map((release) => (
            <ReleaseRow key={release.version} slug={slug} release={release} latest={release.version === latestVersion} />
          ))}
        </ol>
      )}
      {answer && <Pager pagination={answer.pagination} onPage={onPage} label={T.releasePages} />}
    </section>
  );
}
