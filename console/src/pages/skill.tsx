/**
 * One catalog item: its verdict, every field, its releases with digests and
 * scans, "add to collection" and "report". A blocked item (its latest
 * release malicious) is explained in place of "add to collection", so
 * someone who holds it in a collection learns why search dropped it.
 */
import { useRef, useState } from 'react';
import { client, type CatalogItem } from '../api';
import { AddToCollection, type Added } from '../components/add-to-collection';
import { BlockedNotice } from '../components/blocked-notice';
import { Status } from '../components/form';
import { Releases } from '../components/releases';
import { ReportDialog } from '../components/report-dialog';
import { SkillFacts } from '../components/skill-facts';
import { LoadError, Loading } from '../components/states';
import { VerdictBadge } from '../components/trust-badges';
import { useLoad } from '../hooks';
import { T } from '../messages';
import { Link } from '../router';

function SkillView({ item }: { item: CatalogItem }) {
  const [adding, setAdding] = useState<CatalogItem>();
  const [added, setAdded] = useState<Added>();
  const [reporting, setReporting] = useState(false);
  const [reported, setReported] = useState(false);
  const reportButton = useRef<HTMLButtonElement>(null);
  const closeReport = () => {
    setReporting(false);
    reportButton.current?.focus();
  };
  return (
    <>
      <div className="title-row">
        <h1 id="skill-title">{item.name}</h1>
        <span className={`badge type-${item.type}`}>{item.type}</span>
        {item.verdict && <VerdictBadge verdict={item.verdict} of={item.name} />}
        <span className="push title-actions">
          {!item.blocked && (
            <button type="button" className="primary" onClick={() => setAdding(item)}>
              Add to collection
            </button>
          )}
          <button type="button" ref={reportButton} onClick={() => setReporting(true)}>
            {T.reportButton}
          </button>
        </span>
      </div>
      {item.blocked && <BlockedNotice reason={item.blockedReason} />}
      <p className="lead">{item.description || 'No description.'}</p>
      {reported && <Status>{T.reported}</Status>}
      {added && (
        <Status>
          {added.message} <Link to={added.page}>Open the collection</Link>
        </Status>
      )}
      <SkillFacts item={item} />
      <Releases slug={item.slug} latestVersion={item.latestVersion} />
      <AddToCollection
        item={adding}
        onClose={() => setAdding(undefined)}
        onAdded={(done) => {
          setAdding(undefined);
          setAdded(done);
        }}
      />
      <ReportDialog
        item={item}
        open={reporting}
        onClose={closeReport}
        onSent={() => {
          setReported(true);
          closeReport();
        }}
      />
    </>
  );
}

export function SkillPage({ slug }: { slug: string }) {
  const loaded = useLoad(() => client.getSkill(slug), slug);
  const item = loaded.data;
  return (
    <section className="card" aria-labelledby="skill-title">
      <p className="crumbs">
        <Link to="/catalog">← Catalog</Link>
      </p>
      {loaded.error && (
        <>
          <h1 id="skill-title">Skill not available</h1>
          <LoadError message={loaded.error} onRetry={loaded.reload} />
        </>
      )}
      {!item && !loaded.error && <Loading what="the skill" />}
      {item && <SkillView item={item} />}
    </section>
  );
}
