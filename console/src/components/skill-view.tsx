/** One catalog item once loaded: title, type and verdict, "add to collection" (or why it is blocked), "report", its facts and releases. */
import { useRef, useState } from 'react';
import type { CatalogItem } from '../api';
import { T } from '../messages';
import { BlockedNotice } from './blocked-notice';
import { Status } from './form';
import { Releases } from './releases';
import { ReportDialog } from './report-dialog';
import { SkillFacts } from './skill-facts';
import { VerdictBadge } from './trust-badges';
import { useAddToCollection } from './use-add-to-collection';

export function SkillView({ item }: { item: CatalogItem }) {
  const adding = useAddToCollection();
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
            <button type="button" className="primary" onClick={() => adding.add(item)}>
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
      {adding.notice}
      <SkillFacts item={item} />
      <Releases slug={item.slug} latestVersion={item.latestVersion} />
      {adding.dialog}
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
