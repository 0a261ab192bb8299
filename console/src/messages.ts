/**
 * The console's own words for the codes a page carries in its address
 * (`#error=oidc.failed`, `?done=collection-deleted`). An address is
 * anyone's to write: a crafted link may name a code, never the text shown,
 * so an unknown code shows a generic message and nothing of the address.
 * Below them, the texts of versions and trust, in English and French, and
 * what a failed call says on a page.
 */
import { ApiError, type ReportReason, type Verdict } from '@skills/client';

/** Why a sign-in that left the console (single sign-on) did not end signed in: the gateway's message keys. */
const SIGN_IN_ERRORS: Record<string, string> = {
  'oidc.failed': 'Single sign-on failed; try again.',
  'oidc.notConfigured': 'Single sign-on is not configured.',
  'oidc.linkRequired':
    'An account with this email address already exists: sign in to it, then link single sign-on from your profile.',
  'oidc.linkedElsewhere': 'This single sign-on identity is already linked to another account.',
  'oidc.emailNotVerified': 'Your identity provider did not confirm your email address.',
  'oidc.reauthenticateOther': 'Confirm with the single sign-on identity of this account, not another one.',
  'oidc.throttled': 'Too many single sign-on attempts from this address; try again later.',
  'signUp.closed': 'Sign-up is closed on this server; ask your operator for an account.',
  'signUp.invitationRequired': 'Sign-up needs an invitation on this server.',
};

const GENERIC_ERROR = 'Sign-in did not succeed; try again.';

/** What a page says after an action that took the person elsewhere. */
const NOTICES = {
  'collection-deleted': 'Collection deleted.',
  'workspace-left': 'You left the workspace.',
} as const satisfies Record<string, string>;

const GENERIC_NOTICE = 'Done.';

const own = (table: Record<string, string>, code: string): string | undefined =>
  Object.hasOwn(table, code) ? table[code] : undefined;

/** The text for an error code of the sign-in page; undefined when there is no code. */
export function signInErrorText(code: string | undefined): string | undefined {
  return code === undefined ? undefined : (own(SIGN_IN_ERRORS, code) ?? GENERIC_ERROR);
}

/** The text for a notice code; undefined when there is no code. */
export function noticeText(code: string | null): string | undefined {
  return code === null ? undefined : (own(NOTICES, code) ?? GENERIC_NOTICE);
}

export type NoticeCode = keyof typeof NOTICES;

/** `page` with the code of the notice it is to show (read back with `noticeText(useSearch().get('done'))`). */
export function withNotice(page: string, code: NoticeCode): string {
  return `${page}?done=${code}`;
}

/** The languages of the console's trust texts: the browser's first choice when French, else English (as the API answers). */
export type Lang = 'en' | 'fr';
export const LANG: Lang = /^fr\b/i.test(globalThis.navigator?.language ?? '') ? 'fr' : 'en';

export type { ReportReason, Verdict };

const EN = {
  verdict: {
    clean: 'Clean',
    suspicious: 'Suspicious',
    malicious: 'Malicious',
    unscanned: 'Not scanned yet',
  } satisfies Record<Verdict, string>,
  verdictOf: (what: string) => `Security verdict of ${what}`,
  verdictOfSaid: (what: string) => `Security verdict of ${what}: `,
  verified: 'Verified',
  verifiedPublisher: 'Verified publisher: the catalog’s operators confirmed who publishes it',
  blockedTitle: 'This skill is blocked',
  blockedBody:
    'The catalog’s scanners or operators found its latest release malicious: search no longer shows it and it cannot be added to a collection. If a collection of yours holds it, remove it there.',
  blockedReason: 'Reason:',
  latestVersion: 'Latest version',
  releases: 'Releases',
  releasePages: 'Release pages',
  noReleases: 'No release published yet.',
  loadingReleases: 'the releases',
  version: (v: string) => `Version ${v}`,
  published: 'Published',
  digest: 'Digest',
  copy: 'Copy',
  copyDigest: (v: string) => `Copy the digest of ${v}`,
  copied: (digest: string) => `Copied ${digest}`,
  copyRefused: (digest: string) => `Copying is not allowed here; the digest is ${digest}`,
  source: 'Source',
  yanked: 'Yanked',
  yankedBecause: (reason: string) => `Yanked: ${reason}`,
  details: (v: string) => `Details of ${v}`,
  hideDetails: (v: string) => `Hide the details of ${v}`,
  loadingDetails: 'the scans',
  scans: 'Scans',
  noScans: 'No scanner has judged this release yet.',
  scanner: 'Scanner',
  summary: 'Summary',
  recorded: 'Recorded',
  report: 'Report',
  fullReport: (scanner: string) => `Full report of ${scanner}`,
  override: 'Operator’s decision',
  verdictColumn: 'Verdict',
  history: 'Verdict history',
  historyPages: 'Verdict history pages',
  historyKind: { scan: 'Scan', override: 'Operator’s decision', 'override-cleared': 'Operator’s decision withdrawn' },
  reportButton: 'Report',
  reportTitle: (name: string) => `Report “${name}”`,
  reportIntro: 'Tell the catalog’s operators what is wrong with this item. They review every report.',
  reason: 'Reason',
  reasons: {
    malware: 'Malware',
    'credential-theft': 'Steals credentials or secrets',
    'prompt-injection': 'Prompt injection',
    impersonation: 'Impersonates another publisher',
    spam: 'Spam',
    broken: 'Broken: does not work',
    other: 'Something else',
  } satisfies Record<ReportReason, string>,
  reportText: 'What did you see? (optional)',
  charactersLeft: (n: number) => `${n.toLocaleString('en')} characters left`,
  send: 'Send the report',
  sending: 'Sending…',
  cancel: 'Cancel',
  reported: 'Thank you: your report reached the catalog’s operators.',
  retryIn: (wait: string) => `Try again in ${wait}.`,
  minutes: (n: number) => (n === 1 ? '1 minute' : `${n} minutes`),
  hours: (n: number) => (n === 1 ? '1 hour' : `${n} hours`),
  trustLegend: 'Security verdict',
  trustDefault: 'Hide suspicious items (default)',
  trustClean: 'Clean only',
  trustAny: 'Include suspicious items',
  trustHint: 'Malicious items are never shown.',
  trustCounts: 'Verdicts among these results',
  verifiedOnly: 'Verified publishers only',
  verifiedCount: (n: number) => `${n.toLocaleString('en')} from verified publishers`,
};

const FR: typeof EN = {
  verdict: { clean: 'Sain', suspicious: 'Suspect', malicious: 'Malveillant', unscanned: 'Pas encore analysé' },
  verdictOf: (what: string) => `Verdict de sécurité de ${what}`,
  verdictOfSaid: (what: string) => `Verdict de sécurité de ${what}\u00a0: `,
  verified: 'Vérifié',
  verifiedPublisher: 'Éditeur vérifié\u00a0: les opérateurs du catalogue ont confirmé qui le publie',
  blockedTitle: 'Ce skill est bloqué',
  blockedBody:
    'Les analyseurs ou les opérateurs du catalogue ont jugé sa dernière version malveillante\u00a0: la recherche ne l’affiche plus et il ne peut plus être ajouté à une collection. Si l’une de vos collections le contient, retirez-le.',
  blockedReason: 'Motif\u00a0:',
  latestVersion: 'Dernière version',
  releases: 'Versions publiées',
  releasePages: 'Pages des versions',
  noReleases: 'Aucune version publiée pour l’instant.',
  loadingReleases: 'les versions',
  version: (v: string) => `Version ${v}`,
  published: 'Publiée',
  digest: 'Empreinte',
  copy: 'Copier',
  copyDigest: (v: string) => `Copier l’empreinte de ${v}`,
  copied: (digest: string) => `Copiée\u00a0: ${digest}`,
  copyRefused: (digest: string) => `La copie n’est pas permise ici\u00a0; l’empreinte est ${digest}`,
  source: 'Source',
  yanked: 'Retirée',
  yankedBecause: (reason: string) => `Retirée\u00a0: ${reason}`,
  details: (v: string) => `Détails de ${v}`,
  hideDetails: (v: string) => `Masquer les détails de ${v}`,
  loadingDetails: 'les analyses',
  scans: 'Analyses',
  noScans: 'Aucun analyseur n’a encore jugé cette version.',
  scanner: 'Analyseur',
  summary: 'Résumé',
  recorded: 'Enregistré',
  report: 'Rapport',
  fullReport: (scanner: string) => `Rapport complet de ${scanner}`,
  override: 'Décision d’un opérateur',
  verdictColumn: 'Verdict',
  history: 'Historique des verdicts',
  historyPages: 'Pages de l’historique des verdicts',
  historyKind: {
    scan: 'Analyse',
    override: 'Décision d’un opérateur',
    'override-cleared': 'Décision d’un opérateur retirée',
  },
  reportButton: 'Signaler',
  reportTitle: (name: string) => `Signaler «\u00a0${name}\u00a0»`,
  reportIntro: 'Dites aux opérateurs du catalogue ce qui ne va pas avec cet élément. Ils examinent chaque signalement.',
  reason: 'Motif',
  reasons: {
    malware: 'Logiciel malveillant',
    'credential-theft': 'Vole des identifiants ou des secrets',
    'prompt-injection': 'Injection de prompt',
    impersonation: 'Se fait passer pour un autre éditeur',
    spam: 'Spam',
    broken: 'Cassé\u00a0: ne fonctionne pas',
    other: 'Autre chose',
  },
  reportText: 'Qu’avez-vous constaté\u00a0? (facultatif)',
  charactersLeft: (n: number) => `${n.toLocaleString('fr')} caractères restants`,
  send: 'Envoyer le signalement',
  sending: 'Envoi…',
  cancel: 'Annuler',
  reported: 'Merci\u00a0: votre signalement est parvenu aux opérateurs du catalogue.',
  retryIn: (wait: string) => `Réessayez dans ${wait}.`,
  minutes: (n: number) => (n <= 1 ? '1 minute' : `${n} minutes`),
  hours: (n: number) => (n <= 1 ? '1 heure' : `${n} heures`),
  trustLegend: 'Verdict de sécurité',
  trustDefault: 'Masquer les éléments suspects (par défaut)',
  trustClean: 'Sains uniquement',
  trustAny: 'Inclure les éléments suspects',
  trustHint: 'Les éléments malveillants ne sont jamais affichés.',
  trustCounts: 'Verdicts parmi ces résultats',
  verifiedOnly: 'Éditeurs vérifiés uniquement',
  verifiedCount: (n: number) => `dont ${n.toLocaleString('fr')} d’éditeurs vérifiés`,
};

/** The trust texts in the console's language (LANG). */
export const T: typeof EN = LANG === 'fr' ? FR : EN;

/** "in 5 minutes" from a Retry-After of seconds, rounded up. */
export function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes < 120 ? T.minutes(minutes) : T.hours(Math.ceil(minutes / 60));
}

/** What a failed call says: the API's own `{ error }` text (in the browser's language), or the error's message. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The API's message; a 429 adds how long to wait, from Retry-After (the report dialog). */
export function refusalOf(err: unknown): string {
  if (err instanceof ApiError && err.status === 429 && err.retryAfter !== undefined)
    return `${err.message} ${T.retryIn(waitText(err.retryAfter))}`;
  return messageOf(err);
}
