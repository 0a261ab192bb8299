/** The catalog: items, releases, verdicts, reports, import and search. */
import type { Language } from './language';

export const catalogMessages = {
  'skill.notFound': {
    en: 'Skill "{slug}" not found',
    fr: 'Compétence « {slug} » introuvable',
  },
  'skill.blocked': {
    en: 'Skill "{slug}" is blocked and cannot be added: {reason}',
    fr: 'La compétence « {slug} » est bloquée et ne peut pas être ajoutée : {reason}',
  },
  'release.malicious': {
    en: 'Release {version} of "{slug}" is malicious and cannot be added or pinned',
    fr: 'La version {version} de « {slug} » est malveillante et ne peut être ni ajoutée ni épinglée',
  },
  'privateSkill.notFound': {
    en: 'Private skill "{id}" not found',
    fr: 'Compétence privée « {id} » introuvable',
  },
  'search.trustBlocked': {
    en: '"trust" cannot include "malicious": blocked items are never returned by search (read one by its slug to learn why it was blocked)',
    fr: "« trust » ne peut pas inclure « malicious » : la recherche ne renvoie jamais un élément bloqué (lisez-le par son slug pour savoir pourquoi il l'est)",
  },
  'search.embedderBusy': {
    en: 'Search by meaning is busy; retry shortly',
    fr: 'La recherche par le sens est occupée ; réessayez dans un instant',
  },
  'import.lineNotJson': { en: 'not a valid JSON object', fr: 'objet JSON invalide' },
  'import.badLine': {
    en: 'Line {line}: {detail}; nothing was imported',
    fr: "Ligne {line} : {detail} ; rien n'a été importé",
  },
  'report.notFound': { en: 'Report not found', fr: 'Signalement introuvable' },
  'report.alreadyResolved': {
    en: 'This report is already resolved; a handled report cannot be handled again',
    fr: "Ce signalement est déjà résolu ; un signalement traité ne peut pas l'être à nouveau",
  },
  'report.alreadyDismissed': {
    en: 'This report is already dismissed; a handled report cannot be handled again',
    fr: "Ce signalement est déjà classé sans suite ; un signalement traité ne peut pas l'être à nouveau",
  },
  'report.rateLimited': {
    en: 'Report limit reached: an account files at most {limit} reports in 24 hours; retry in {seconds} s',
    fr: 'Limite de signalements atteinte : un compte dépose au plus {limit} signalements en 24 heures ; réessayez dans {seconds} s',
  },
  'reindex.alreadyRunning': {
    en: 'A reindex is already running (job {id})',
    fr: 'Une réindexation est déjà en cours (tâche {id})',
  },
  'reindex.jobNotFound': { en: 'Reindex job not found', fr: 'Tâche de réindexation introuvable' },
  'release.notFound': {
    en: 'Release {version} of "{slug}" not found',
    fr: 'Version {version} de « {slug} » introuvable',
  },
  'release.digestConflict': {
    en: 'Version {version} of "{slug}" is already published with digest {existing}; it cannot be published again with digest {given}',
    fr: "La version {version} de « {slug} » est déjà publiée avec l'empreinte {existing} ; elle ne peut pas être publiée de nouveau avec l'empreinte {given}",
  },
  'release.tooMany': {
    en: 'An item holds at most {limit} releases',
    fr: 'Un élément détient au plus {limit} versions',
  },
  'release.semver': {
    en: '"{field}" must be a SemVer version such as 1.4.0 or 2.0.0-rc.1, without a leading "v" or build metadata',
    fr: '« {field} » doit être une version SemVer comme 1.4.0 ou 2.0.0-rc.1, sans « v » initial ni métadonnées de build',
  },
  'verdict.scannerOnly': {
    en: 'Only a scanner credential can record a verdict',
    fr: 'Seul un identifiant de scanner peut enregistrer un verdict',
  },
  'import.releaseConflict': {
    en: 'Line {line}: version {version} of "{slug}" is already published with digest {existing}; it cannot be published again with digest {given}; nothing was imported',
    fr: "Ligne {line} : la version {version} de « {slug} » est déjà publiée avec l'empreinte {existing} ; elle ne peut pas être publiée de nouveau avec l'empreinte {given} ; rien n'a été importé",
  },
} satisfies Record<string, Record<Language, string>>;
