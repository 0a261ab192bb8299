/** A release opened: its full digest, each scanner's latest scan (summary, report link), the operator's decision, and the verdict history. */
import { useId, useState } from 'react';
import { client, type Scan, type VerdictEntry } from '../api';
import { when } from '../format';
import { useLoad } from '../hooks';
import { T } from '../messages';
import { Pager } from './pagination';
import { WhenLoaded } from './states';
import { VerdictBadge } from './trust-badges';

function ReportLink({ url, scanner }: { url: string | null; scanner: string | null }) {
  if (!url) return <>—</>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {T.report}
      <span className="visually-hidden"> {T.fullReport(scanner ?? '')} (opens in a new tab)</span>
    </a>
  );
}

function Scans({ scans }: { scans: Scan[] }) {
  if (scans.length === 0) return <p className="hint">{T.noScans}</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{T.scans}</caption>
        <thead>
          <tr>
            <th scope="col">{T.scanner}</th>
            <th scope="col">{T.verdictColumn}</th>
            <th scope="col">{T.summary}</th>
            <th scope="col">{T.report}</th>
            <th scope="col">{T.recorded}</th>
          </tr>
        </thead>
        <tbody>
          {scans.map((scan) => (
            <tr key={scan.scanner}>
              <th scope="row">{scan.scanner}</th>
              <td>
                <VerdictBadge verdict={scan.verdict} />
              </td>
              <td>{scan.summary}</td>
              <td>
                <ReportLink url={scan.reportUrl} scanner={scan.scanner} />
              </td>
              <td>{when(scan.recordedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function HistoryEntry({ entry }: { entry: VerdictEntry }) {
  return (
    <li>
      <span className="history-when">{when(entry.recordedAt)}</span> · {T.historyKind[entry.kind]}
      {entry.scanner && <> · {entry.scanner}</>} {entry.verdict && <VerdictBadge verdict={entry.verdict} />}{' '}
      {entry.summary ?? entry.note ?? ''}
      {entry.reportUrl && (
        <>
          {' '}
          <ReportLink url={entry.reportUrl} scanner={entry.scanner} />
        </>
      )}
    </li>
  );
}

function History({ slug, version, labelledBy }: { slug: string; version: string; labelledBy: string }) {
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () => client.listSkillVersionVerdictsPage(slug, version, { limit: 10, page }),
    `${slug}@${version}#${page}`,
  );
  return (
    <WhenLoaded loaded={loaded} what={T.history}>
      {({ verdicts, pagination }) => (
        <>
          <ol className="history" aria-labelledby={labelledBy}>
            {verdicts.map((entry, i) => (
              <HistoryEntry key={`${entry.recordedAt}-${i}`} entry={entry} />
            ))}
          </ol>
          <Pager pagination={pagination} onPage={setPage} label={`${T.historyPages} ${version}`} />
        </>
      )}
    </WhenLoaded>
  );
}

export function ReleaseDetails({ slug, version }: { slug: string; version: string }) {
  const loaded = useLoad(() => client.getSkillVersion(slug, version), `${slug}@${version}`);
  const historyId = useId();
  return (
    <WhenLoaded loaded={loaded} what={T.loadingDetails}>
      {(release) => (
        <div className="release-details">
          <p className="full-digest">
            <strong>{T.digest}</strong> <code>{release.digest}</code>
          </p>
          <h4>{T.scans}</h4>
          <Scans scans={release.scans} />
          {release.override && (
            <>
              <h4>{T.override}</h4>
              <p>
                <VerdictBadge verdict={release.override.verdict} /> {release.override.note}{' '}
                <span className="hint">({when(release.override.recordedAt)})</span>
              </p>
            </>
          )}
          <h4 id={historyId}>{T.history}</h4>
          <History slug={slug} version={version} labelledBy={historyId} />
        </div>
      )}
    </WhenLoaded>
  );
}
