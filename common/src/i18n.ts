/**
 * Every user-facing message, in English and French. Keys are stable; the
 * texts of `auth.invalidKey` and `auth.planWithoutApi` are fixed by the API
 * contract and must not change.
 */
export type Language = 'en' | 'fr';
export type MessageParams = Record<string, string | number>;

const messages = {
  'auth.invalidKey': {
    en: 'Invalid or revoked API key',
    fr: 'Clé API invalide ou révoquée',
  },
  'auth.planWithoutApi': {
    en: 'API access is available with a plan that includes API access',
    fr: 'L\'API est disponible avec un plan incluant l’accès API',
  },
  'auth.invalidAdminToken': {
    en: 'Invalid admin token',
    fr: 'Jeton d\'administration invalide',
  },
  'auth.invalidReaderToken': {
    en: 'Missing or invalid items reader token',
    fr: 'Jeton de lecture des éléments absent ou invalide',
  },
  'auth.invalidPrincipal': {
    en: 'Missing or invalid principal signature',
    fr: 'Signature du principal absente ou invalide',
  },
  'workspace.noAccess': {
    en: 'You do not have access to this workspace',
    fr: 'Vous n\'avez pas accès à cet espace de travail',
  },
  'workspace.roleTooLow': {
    en: 'Your workspace role does not allow this action',
    fr: 'Votre rôle dans l\'espace de travail ne permet pas cette action',
  },
  'workspace.notFound': { en: 'Workspace not found', fr: 'Espace de travail introuvable' },
  'workspace.memberNotFound': {
    en: 'This account is not a member of the workspace',
    fr: 'Ce compte n\'est pas membre de l\'espace de travail',
  },
  'workspace.lastOwner': {
    en: 'A workspace keeps at least one owner: make another member owner first',
    fr: 'Un espace de travail garde au moins un propriétaire : nommez d\'abord un autre membre propriétaire',
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
  'skill.notFound': {
    en: 'Skill "{slug}" not found',
    fr: 'Compétence « {slug} » introuvable',
  },
  'skill.blocked': {
    en: 'Skill "{slug}" is blocked and cannot be added: {reason}',
    fr: 'La compétence « {slug} » est bloquée et ne peut pas être ajoutée : {reason}',
  },
  'privateSkill.notFound': {
    en: 'Private skill "{id}" not found',
    fr: 'Compétence privée « {id} » introuvable',
  },
  'account.notFound': { en: 'Account not found', fr: 'Compte introuvable' },
  'account.emailTaken': {
    en: 'An account with this email already exists',
    fr: 'Un compte avec cette adresse e-mail existe déjà',
  },
  'apiKey.notFound': { en: 'API key not found', fr: 'Clé API introuvable' },
  'auth.scannerVerdictsOnly': {
    en: 'A scanner credential may only record verdicts',
    fr: 'Un identifiant de scanner ne peut qu\'enregistrer des verdicts',
  },
  'auth.scannerRequired': {
    en: 'Only a scanner credential may record verdicts',
    fr: 'Seul un identifiant de scanner peut enregistrer des verdicts',
  },
  'auth.invalidScannerToken': {
    en: 'Invalid or revoked scanner credential',
    fr: 'Identifiant de scanner invalide ou révoqué',
  },
  'scanner.notFound': { en: 'Scanner not found', fr: 'Scanner introuvable' },
  'scanner.nameTaken': {
    en: 'An active scanner named "{name}" already exists',
    fr: 'Un scanner actif nommé « {name} » existe déjà',
  },
  'auth.missingScope': {
    en: 'This API key does not have the "{scope}" scope',
    fr: 'Cette clé API n\'a pas la portée « {scope} »',
  },
  'auth.sessionOnly': {
    en: 'Only a signed-in console session can do this, not an API key',
    fr: 'Seule une session connectée à la console peut faire cela, pas une clé API',
  },
  'session.required': { en: 'You are not signed in', fr: 'Vous n\'êtes pas connecté' },
  'session.reauthenticate': {
    en: 'Enter your password again to do this (you signed in more than {minutes} minutes ago)',
    fr: 'Saisissez de nouveau votre mot de passe pour faire cela (vous vous êtes connecté il y a plus de {minutes} minutes)',
  },
  'password.wrongCurrent': { en: 'The current password is not right', fr: 'Le mot de passe actuel est incorrect' },
  'password.noneSet': {
    en: 'This account has no password (it signs in through single sign-on or links); ask for a reset link to set one',
    fr: 'Ce compte n\'a pas de mot de passe (il se connecte par authentification unique ou par lien) ; demandez un lien de réinitialisation pour en définir un',
  },
  'session.csrf': {
    en: 'Missing or invalid CSRF token',
    fr: 'Jeton CSRF absent ou invalide',
  },
  'session.origin': {
    en: 'Request refused: it does not come from this site',
    fr: 'Requête refusée : elle ne provient pas de ce site',
  },
  'session.notFound': { en: 'Session not found', fr: 'Session introuvable' },
  'signIn.badCredentials': { en: 'Wrong email or password', fr: 'Adresse e-mail ou mot de passe incorrect' },
  'signIn.throttled': {
    en: 'Too many failed sign-in attempts; retry in {seconds} s',
    fr: 'Trop de tentatives de connexion échouées ; réessayez dans {seconds} s',
  },
  'signUp.throttled': {
    en: 'Too many sign-ups from this address; retry in {seconds} s',
    fr: 'Trop d\'inscriptions depuis cette adresse ; réessayez dans {seconds} s',
  },
  'links.throttled': {
    en: 'Too many link requests; retry in {seconds} s',
    fr: 'Trop de demandes de lien ; réessayez dans {seconds} s',
  },
  'signUp.closed': { en: 'Sign-up is closed on this server', fr: 'Les inscriptions sont fermées sur ce serveur' },
  'signUp.invitationRequired': {
    en: 'Sign-up needs an invitation link',
    fr: 'L\'inscription nécessite un lien d\'invitation',
  },
  'password.common': {
    en: 'This password is too common; choose another one',
    fr: 'Ce mot de passe est trop courant ; choisissez-en un autre',
  },
  'password.containsEmail': {
    en: 'The password must not contain your email address',
    fr: 'Le mot de passe ne doit pas contenir votre adresse e-mail',
  },
  'link.invalid': {
    en: 'This link is invalid, already used or expired',
    fr: 'Ce lien est invalide, déjà utilisé ou expiré',
  },
  'mail.quotaAddress': {
    en: 'Too many mails to this address today; retry in {hours} h',
    fr: 'Trop d\'e-mails envoyés à cette adresse aujourd\'hui ; réessayez dans {hours} h',
  },
  'mail.quotaWorkspace': {
    en: 'This workspace sent too many invitation mails today; retry in {hours} h, or share the link without email',
    fr: 'Cet espace de travail a envoyé trop d\'invitations par e-mail aujourd\'hui ; réessayez dans {hours} h, ou partagez le lien sans e-mail',
  },
  'mail.notConfigured': {
    en: 'Password reset by email is not configured; ask your operator for a reset link',
    fr: 'La réinitialisation par e-mail n\'est pas configurée ; demandez un lien à votre opérateur',
  },
  'oidc.throttled': {
    en: 'Too many single sign-on attempts from this address; retry in {seconds} s',
    fr: 'Trop de tentatives d\'authentification unique depuis cette adresse ; réessayez dans {seconds} s',
  },
  'oidc.notConfigured': {
    en: 'Single sign-on is not configured',
    fr: 'L\'authentification unique n\'est pas configurée',
  },
  'oidc.failed': {
    en: 'Single sign-on failed; try again',
    fr: 'L\'authentification unique a échoué ; réessayez',
  },
  'oidc.linkRequired': {
    en: 'An account with this email address already exists: sign in to it, then link single sign-on from your profile',
    fr: 'Un compte avec cette adresse e-mail existe déjà : connectez-vous à ce compte, puis liez l\'authentification unique depuis votre profil',
  },
  'oidc.linkedElsewhere': {
    en: 'This single sign-on identity is already linked to another account',
    fr: 'Cette identité d\'authentification unique est déjà liée à un autre compte',
  },
  'email.notVerified': {
    en: 'Verify your email address first: open the link we mailed you',
    fr: 'Vérifiez d\'abord votre adresse e-mail : ouvrez le lien que nous vous avons envoyé',
  },
  'oidc.reauthenticateOther': {
    en: 'Confirm with the single sign-on identity of this account',
    fr: 'Confirmez avec l\'identité d\'authentification unique de ce compte',
  },
  'oidc.emailNotVerified': {
    en: 'Your identity provider did not confirm your email address',
    fr: 'Votre fournisseur d\'identité n\'a pas confirmé votre adresse e-mail',
  },
  'apiKey.tooMany': {
    en: 'At most {limit} active API keys per account',
    fr: 'Au plus {limit} clés API actives par compte',
  },
  'apiKey.noExpiryRefused': {
    en: 'Keys must expire here, after at most {limit} days',
    fr: 'Les clés doivent expirer ici, après au plus {limit} jours',
  },
  'apiKey.notActive': {
    en: 'Only an active API key can be rolled',
    fr: 'Seule une clé API active peut être renouvelée',
  },
  'apiKey.boundToOtherWorkspace': {
    en: 'This API key is bound to another workspace: its searches apply that workspace\'s policy only',
    fr: 'Cette clé API est liée à un autre espace de travail : ses recherches n\'appliquent que la politique de celui-ci',
  },
  'route.notFound': { en: 'Route not found', fr: 'Route introuvable' },
  'request.malformed': { en: 'Malformed HTTP request', fr: 'Requête HTTP mal formée' },
  'request.timeout': {
    en: 'The request was not received in time',
    fr: 'La requête n\'a pas été reçue à temps',
  },
  'request.headersTooLarge': {
    en: 'Request headers are too large',
    fr: 'Les en-têtes de la requête sont trop volumineux',
  },
  'route.malformedPath': {
    en: 'The request path is not valid percent-encoded UTF-8',
    fr: 'Le chemin de la requête n\'est pas de l\'UTF-8 correctement encodé en pourcentage',
  },
  'route.methodNotAllowed': {
    en: 'Method {method} is not allowed on this route',
    fr: 'La méthode {method} n\'est pas autorisée sur cette route',
  },
  'body.tooLarge': {
    en: 'Request body is larger than {limit}',
    fr: 'Le corps de la requête dépasse {limit}',
  },
  'body.unsupportedType': {
    en: 'Request body must be sent as {type}',
    fr: 'Le corps de la requête doit être envoyé en {type}',
  },
  'body.nulCharacter': {
    en: 'Request body must not contain the NUL character (\\u0000)',
    fr: 'Le corps de la requête ne doit pas contenir le caractère NUL (\\u0000)',
  },
  'body.invalidJson': {
    en: 'Request body is not valid JSON',
    fr: 'Le corps de la requête n\'est pas un JSON valide',
  },
  'body.empty': {
    en: 'Request body must contain at least one field',
    fr: 'Le corps de la requête doit contenir au moins un champ',
  },
  'validation.required': { en: '"{field}" is required', fr: '« {field} » est obligatoire' },
  'validation.unknownField': {
    en: '"{field}" is not an allowed field',
    fr: '« {field} » n\'est pas un champ autorisé',
  },
  'validation.string': { en: '"{field}" must be a string', fr: '« {field} » doit être une chaîne' },
  'validation.stringEmpty': {
    en: '"{field}" must not be empty',
    fr: '« {field} » ne doit pas être vide',
  },
  'validation.stringMin': {
    en: '"{field}" must be at least {limit} characters long',
    fr: '« {field} » doit contenir au moins {limit} caractères',
  },
  'validation.stringMax': {
    en: '"{field}" must be at most {limit} characters long',
    fr: '« {field} » doit contenir au plus {limit} caractères',
  },
  'validation.pattern': {
    en: '"{field}" has an invalid format',
    fr: '« {field} » a un format invalide',
  },
  'validation.number': { en: '"{field}" must be a number', fr: '« {field} » doit être un nombre' },
  'validation.integer': {
    en: '"{field}" must be an integer',
    fr: '« {field} » doit être un entier',
  },
  'validation.numberMin': {
    en: '"{field}" must be greater than or equal to {limit}',
    fr: '« {field} » doit être supérieur ou égal à {limit}',
  },
  'validation.numberMax': {
    en: '"{field}" must be less than or equal to {limit}',
    fr: '« {field} » doit être inférieur ou égal à {limit}',
  },
  'validation.oneOf': {
    en: '"{field}" must be one of: {values}',
    fr: '« {field} » doit valoir l\'une de ces valeurs : {values}',
  },
  'validation.array': { en: '"{field}" must be an array', fr: '« {field} » doit être un tableau' },
  'validation.arrayMax': {
    en: '"{field}" must contain at most {limit} items',
    fr: '« {field} » doit contenir au plus {limit} éléments',
  },
  'validation.object': {
    en: '"{field}" must be a JSON object',
    fr: '« {field} » doit être un objet JSON',
  },
  'validation.uuid': {
    en: '"{field}" must be a valid identifier',
    fr: '« {field} » doit être un identifiant valide',
  },
  'validation.email': {
    en: '"{field}" must be a valid email address',
    fr: '« {field} » doit être une adresse e-mail valide',
  },
  'validation.url': {
    en: '"{field}" must be an http or https URL',
    fr: '« {field} » doit être une URL http ou https',
  },
  'validation.invalid': { en: '"{field}" is invalid', fr: '« {field} » est invalide' },
  'validation.bidiControl': {
    en: '"{field}" must not contain bidirectional control characters',
    fr: '« {field} » ne doit pas contenir de caractères de contrôle bidirectionnel',
  },
  'validation.deepPage': {
    en: '"page" × "limit" must be at most {limit}',
    fr: '« page » × « limit » doit valoir au plus {limit}',
  },
  'search.trustBlocked': {
    en: '"trust" cannot include "malicious": blocked items are never returned by search (read one by its slug to learn why it was blocked)',
    fr: '« trust » ne peut pas inclure « malicious » : la recherche ne renvoie jamais un élément bloqué (lisez-le par son slug pour savoir pourquoi il l\'est)',
  },
  'validation.cursor': {
    en: '"{field}" must be a cursor this feed returned as nextCursor',
    fr: '« {field} » doit être un curseur renvoyé par ce flux dans nextCursor',
  },
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
  'quota.privateSkillsPerAccount': {
    en: 'Quota reached: an account holds at most {limit} private skills (private skills per account)',
    fr: 'Quota atteint : un compte détient au plus {limit} compétences privées (compétences privées par compte)',
  },
  'collection.changed': {
    en: 'The collection changed since you read it: read it again, then retry with its new ETag in If-Match',
    fr: 'La collection a changé depuis votre lecture : relisez-la, puis réessayez avec son nouvel ETag dans If-Match',
  },
  'import.lineNotJson': { en: 'not a valid JSON object', fr: 'objet JSON invalide' },
  'import.badLine': {
    en: 'Line {line}: {detail}; nothing was imported',
    fr: 'Ligne {line} : {detail} ; rien n\'a été importé',
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
  'report.notFound': { en: 'Report not found', fr: 'Signalement introuvable' },
  'report.alreadyResolved': {
    en: 'This report is already resolved; a handled report cannot be handled again',
    fr: 'Ce signalement est déjà résolu ; un signalement traité ne peut pas l\'être à nouveau',
  },
  'report.alreadyDismissed': {
    en: 'This report is already dismissed; a handled report cannot be handled again',
    fr: 'Ce signalement est déjà classé sans suite ; un signalement traité ne peut pas l\'être à nouveau',
  },
  'report.rateLimited': {
    en: 'Report limit reached: an account files at most {limit} reports in 24 hours; retry in {seconds} s',
    fr: 'Limite de signalements atteinte : un compte dépose au plus {limit} signalements en 24 heures ; réessayez dans {seconds} s',
  },
  'auth.tooManyFailures': {
    en: 'Too many failed authentications from this address; retry in {seconds} s',
    fr: 'Trop d\'échecs d\'authentification depuis cette adresse ; réessayez dans {seconds} s',
  },
  'rateLimit.exceeded': {
    en: 'Rate limit exceeded; retry in {seconds} s',
    fr: 'Limite de requêtes dépassée ; réessayez dans {seconds} s',
  },
  'upstream.unavailable': {
    en: 'The service is temporarily unavailable',
    fr: 'Le service est temporairement indisponible',
  },
  'upstream.timeout': {
    en: 'The service did not answer in time',
    fr: 'Le service n\'a pas répondu à temps',
  },
  'upstream.badGateway': {
    en: 'The service gave an invalid answer',
    fr: 'Le service a donné une réponse invalide',
  },
  'server.shuttingDown': {
    en: 'The server is shutting down',
    fr: 'Le serveur est en cours d\'arrêt',
  },
  'server.overloaded': {
    en: 'The server is busy; retry shortly',
    fr: 'Le serveur est surchargé ; réessayez dans un instant',
  },
  'principal.expired': {
    en: 'The request waited too long inside the service; retry shortly',
    fr: 'La requête a trop attendu dans le service ; réessayez dans un instant',
  },
  'server.internal': { en: 'Internal server error', fr: 'Erreur interne du serveur' },
  'health.notReady': {
    en: 'Not ready: {reason} not answering',
    fr: 'Pas prêt : {reason} ne répond pas',
  },
  'health.notReadyPublic': { en: 'Not ready', fr: 'Pas prêt' },
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
    fr: 'La version {version} de « {slug} » est déjà publiée avec l\'empreinte {existing} ; elle ne peut pas être publiée de nouveau avec l\'empreinte {given}',
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
    fr: 'Ligne {line} : la version {version} de « {slug} » est déjà publiée avec l\'empreinte {existing} ; elle ne peut pas être publiée de nouveau avec l\'empreinte {given} ; rien n\'a été importé',
  },
  // The workspace policy and pins (docs/governance.md); a refusal names its rule.
  'policy.minimumVerdict': {
    en: 'The workspace policy refuses "{slug}": its verdict {verdict} is worse than the minimum {minimum} (rule minimumVerdict)',
    fr: 'La politique de l\'espace de travail refuse « {slug} » : son verdict {verdict} est pire que le minimum {minimum} (règle minimumVerdict)',
  },
  'policy.verifiedPublishersOnly': {
    en: 'The workspace policy refuses "{slug}": its publisher {publisher} is not verified (rule verifiedPublishersOnly)',
    fr: 'La politique de l\'espace de travail refuse « {slug} » : son éditeur {publisher} n\'est pas vérifié (règle verifiedPublishersOnly)',
  },
  'policy.allowedPublishers': {
    en: 'The workspace policy refuses "{slug}": its publisher {publisher} is not allowed (rule allowedPublishers)',
    fr: 'La politique de l\'espace de travail refuse « {slug} » : son éditeur {publisher} n\'est pas autorisé (règle allowedPublishers)',
  },
  'policy.allowedLicenses': {
    en: 'The workspace policy refuses "{slug}": its licence {license} is not allowed (rule allowedLicenses)',
    fr: 'La politique de l\'espace de travail refuse « {slug} » : sa licence {license} n\'est pas autorisée (règle allowedLicenses)',
  },
  'policy.allowedTypes': {
    en: 'The workspace policy refuses "{slug}": its type {type} is not allowed (rule allowedTypes)',
    fr: 'La politique de l\'espace de travail refuse « {slug} » : son type {type} n\'est pas autorisé (règle allowedTypes)',
  },
  'policy.deniedSlugs': {
    en: 'The workspace policy refuses "{slug}": it is on the deny list (rule deniedSlugs)',
    fr: 'La politique de l\'espace de travail refuse « {slug} » : elle figure sur la liste des refus (règle deniedSlugs)',
  },
  'pin.allYanked': {
    en: '"{slug}" cannot be pinned: every release of it is yanked',
    fr: '« {slug} » ne peut pas être épinglée : toutes ses versions sont retirées',
  },
  // Signed webhooks (docs/governance.md)
  'webhook.notFound': { en: 'Webhook not found', fr: 'Webhook introuvable' },
  'webhook.badUrl': {
    en: 'The webhook URL is not a valid absolute URL without credentials',
    fr: 'L\'URL du webhook n\'est pas une URL absolue valide sans identifiants',
  },
  'webhook.httpsOnly': { en: 'A webhook URL must use https', fr: 'L\'URL d\'un webhook doit utiliser https' },
  'webhook.unresolvable': {
    en: 'The host {host} of the webhook URL cannot be resolved',
    fr: 'L\'hôte {host} de l\'URL du webhook ne peut pas être résolu',
  },
  'webhook.privateTarget': {
    en: 'The webhook URL leads to {address}, which is not a public address',
    fr: 'L\'URL du webhook mène à {address}, qui n\'est pas une adresse publique',
  },
} satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof messages;

/** The catalogue, for tests that check every key exists in both languages. */
export const messageCatalogue: Readonly<Record<MessageKey, Record<Language, string>>> = messages;

/**
 * Picks English or French from an Accept-Language header (RFC 9110 §12.5.4):
 * the highest q-value among `en*` / `fr*` wins; English when neither appears.
 */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  let best: Language = 'en';
  let bestQ = -1;
  for (const part of header.split(',')) {
    const [rangeRaw, ...paramsRaw] = part.trim().split(';');
    const range = (rangeRaw ?? '').trim().toLowerCase();
    let q = 1;
    for (const p of paramsRaw) {
      const [k, v] = p.trim().split('=');
      if (k === 'q' && v !== undefined) q = Number.parseFloat(v);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang: Language | undefined = range.startsWith('fr') ? 'fr' : range.startsWith('en') ? 'en' : undefined;
    if (lang && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}

/** Renders a message in a language, replacing `{name}` placeholders. */
export function translate(key: MessageKey, lang: Language, params: MessageParams = {}): string {
  const template = messages[key][lang];
  return template.replace(/\{(\w+)\}/g, (_, name: string) =>
    params[name] !== undefined ? String(params[name]) : `{${name}}`,
  );
}
