/** Collections, workspaces, invitations, quotas, policy, pins and webhooks. */
import type { Language } from './language';

export const collectionMessages = {
  'workspace.noAccess': {
    en: 'You do not have access to this workspace',
    fr: "Vous n'avez pas accès à cet espace de travail",
  },
  'workspace.roleTooLow': {
    en: 'Your workspace role does not allow this action',
    fr: "Votre rôle dans l'espace de travail ne permet pas cette action",
  },
  'workspace.notFound': { en: 'Workspace not found', fr: 'Espace de travail introuvable' },
  'workspace.memberNotFound': {
    en: 'This account is not a member of the workspace',
    fr: "Ce compte n'est pas membre de l'espace de travail",
  },
  'workspace.lastOwner': {
    en: 'A workspace keeps at least one owner: make another member owner first',
    fr: "Un espace de travail garde au moins un propriétaire : nommez d'abord un autre membre propriétaire",
  },
  'invitation.notFound': { en: 'Invitation not found', fr: 'Invitation introuvable' },
  'invitation.invalid': {
    en: 'This invitation is invalid, revoked, already used or expired',
    fr: 'Cette invitation est invalide, révoquée, déjà utilisée ou expirée',
  },
  'invitation.inviterGone': {
    en: 'The person who created this invitation can no longer invite to this workspace',
    fr: 'La personne qui a créé cette invitation ne peut plus inviter dans cet espace de travail',
  },
  'invitation.alreadyMember': {
    en: 'You are already a member of this workspace',
    fr: 'Vous êtes déjà membre de cet espace de travail',
  },
  'collection.notFound': { en: 'Collection not found', fr: 'Collection introuvable' },
  'quota.entriesPerCollection': {
    en: 'Quota reached: a collection holds at most {limit} skills (entries per collection)',
    fr: 'Quota atteint : une collection contient au plus {limit} compétences (entrées par collection)',
  },
  'quota.collectionsPerAccount': {
    en: 'Quota reached: an account holds at most {limit} personal collections (collections per account)',
    fr: 'Quota atteint : un compte détient au plus {limit} collections personnelles (collections par compte)',
  },
  'quota.collectionsPerWorkspace': {
    en: 'Quota reached: a workspace holds at most {limit} collections (collections per workspace)',
    fr: 'Quota atteint : un espace de travail détient au plus {limit} collections (collections par espace de travail)',
  },
  'quota.workspacesPerAccount': {
    en: 'Quota reached: an account owns at most {limit} workspaces (workspaces per account)',
    fr: 'Quota atteint : un compte possède au plus {limit} espaces de travail (espaces de travail par compte)',
  },
  'quota.pendingInvitations': {
    en: 'Quota reached: a workspace holds at most {limit} pending invitations (pending invitations per workspace)',
    fr: 'Quota atteint : un espace de travail détient au plus {limit} invitations en attente (invitations en attente par espace de travail)',
  },
  'quota.webhooksPerWorkspace': {
    en: 'Quota reached: a workspace holds at most {limit} webhook endpoints (webhooks per workspace)',
    fr: 'Quota atteint : un espace de travail détient au plus {limit} points de terminaison de webhook (webhooks par espace de travail)',
  },
  'quota.privateSkillsPerAccount': {
    en: 'Quota reached: an account holds at most {limit} private skills (private skills per account)',
    fr: 'Quota atteint : un compte détient au plus {limit} compétences privées (compétences privées par compte)',
  },
  'collection.changed': {
    en: 'The collection changed since you read it: read it again, then retry with its new ETag in If-Match',
    fr: 'La collection a changé depuis votre lecture : relisez-la, puis réessayez avec son nouvel ETag dans If-Match',
  },
  'idempotency.mismatch': {
    en: 'Idempotency-Key was already used with a different request body',
    fr: 'Idempotency-Key a déjà été utilisée avec un autre corps de requête',
  },
  'idempotency.invalidKey': {
    en: 'Idempotency-Key must be 1 to {max} visible ASCII characters',
    fr: 'Idempotency-Key doit compter de 1 à {max} caractères ASCII visibles',
  },
  'idempotency.inFlight': {
    en: 'A request with this Idempotency-Key is still being processed',
    fr: 'Une requête avec cette Idempotency-Key est encore en cours de traitement',
  },
  // The workspace policy and pins (docs/governance.md); a refusal names its rule.
  'policy.minimumVerdict': {
    en: 'The workspace policy refuses "{slug}": its verdict {verdict} is worse than the minimum {minimum} (rule minimumVerdict)',
    fr: "La politique de l'espace de travail refuse « {slug} » : son verdict {verdict} est pire que le minimum {minimum} (règle minimumVerdict)",
  },
  'policy.verifiedPublishersOnly': {
    en: 'The workspace policy refuses "{slug}": its publisher {publisher} is not verified (rule verifiedPublishersOnly)',
    fr: "La politique de l'espace de travail refuse « {slug} » : son éditeur {publisher} n'est pas vérifié (règle verifiedPublishersOnly)",
  },
  'policy.allowedPublishers': {
    en: 'The workspace policy refuses "{slug}": its publisher {publisher} is not allowed (rule allowedPublishers)',
    fr: "La politique de l'espace de travail refuse « {slug} » : son éditeur {publisher} n'est pas autorisé (règle allowedPublishers)",
  },
  'policy.allowedLicenses': {
    en: 'The workspace policy refuses "{slug}": its licence {license} is not allowed (rule allowedLicenses)',
    fr: "La politique de l'espace de travail refuse « {slug} » : sa licence {license} n'est pas autorisée (règle allowedLicenses)",
  },
  'policy.allowedTypes': {
    en: 'The workspace policy refuses "{slug}": its type {type} is not allowed (rule allowedTypes)',
    fr: "La politique de l'espace de travail refuse « {slug} » : son type {type} n'est pas autorisé (règle allowedTypes)",
  },
  'policy.deniedSlugs': {
    en: 'The workspace policy refuses "{slug}": it is on the deny list (rule deniedSlugs)',
    fr: "La politique de l'espace de travail refuse « {slug} » : elle figure sur la liste des refus (règle deniedSlugs)",
  },
  'pin.allYanked': {
    en: '"{slug}" cannot be pinned: every release of it is yanked',
    fr: '« {slug} » ne peut pas être épinglée : toutes ses versions sont retirées',
  },
  // Signed webhooks (docs/governance.md)
  'webhook.notFound': { en: 'Webhook not found', fr: 'Webhook introuvable' },
  'webhook.badUrl': {
    en: 'The webhook URL is not a valid absolute URL without credentials',
    fr: "L'URL du webhook n'est pas une URL absolue valide sans identifiants",
  },
  'webhook.httpsOnly': { en: 'A webhook URL must use https', fr: "L'URL d'un webhook doit utiliser https" },
  'webhook.unresolvable': {
    en: 'The host {host} of the webhook URL cannot be resolved',
    fr: "L'hôte {host} de l'URL du webhook ne peut pas être résolu",
  },
  // one message whatever the address: naming it would tell what an internal name resolves to
  'webhook.privateTarget': {
    en: 'The host of the webhook URL is or resolves to a private or reserved address',
    fr: "L'hôte de l'URL du webhook est ou désigne une adresse privée ou réservée",
  },
  'webhook.testThrottled': {
    en: 'A webhook is sent at most {limit} test deliveries a minute; retry in {seconds} s',
    fr: 'Un webhook reçoit au plus {limit} livraisons de test par minute ; réessayez dans {seconds} s',
  },
} satisfies Record<string, Record<Language, string>>;
