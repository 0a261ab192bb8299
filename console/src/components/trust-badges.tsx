/** Trust at a glance: a verdict told by an icon and a word (never by colour alone), the publisher's verification, a yank. */
import { T, type Verdict } from '../messages';

/** One shape per verdict, so the badges differ in grey too. */
const ICONS: Record<Verdict, string> = { clean: '✓', suspicious: '!', malicious: '✕', unscanned: '?' };

/** The verdict as a badge; `of` names what it judges for a screen reader ("Security verdict of 1.4.0"). */
export function VerdictBadge({ verdict, of }: { verdict: Verdict; of?: string }) {
  return (
    <span className={`badge verdict verdict-${verdict}`} title={of ? T.verdictOf(of) : undefined}>
      <span aria-hidden="true" className="verdict-icon">
        {ICONS[verdict]}
      </span>{' '}
      {of && <span className="visually-hidden">{T.verdictOfSaid(of)}</span>}
      {T.verdict[verdict]}
    </span>
  );
}

/** "✓ Verified" beside a publisher's name; nothing for an unverified one. */
export function VerifiedMark({ verified }: { verified: boolean | undefined }) {
  if (!verified) return null;
  return (
    <span className="badge verified" title={T.verifiedPublisher}>
      <span aria-hidden="true">✓ </span>
      {T.verified}
      <span className="visually-hidden"> ({T.verifiedPublisher})</span>
    </span>
  );
}

export function YankedBadge({ reason }: { reason: string }) {
  return (
    <span className="badge yanked">
      <span aria-hidden="true">⊘ </span>
      {T.yankedBecause(reason)}
    </span>
  );
}
