/** Accounts, sign-in, sessions, API keys and scanner credentials (the gateway). */
import type { Language } from './language';

export const accountMessages = {
  'auth.invalidKey': {
    en: 'Invalid or revoked API key',
    fr: 'Clé API invalide ou révoquée',
  },
  'auth.planWithoutApi': {
    en: 'API access is available with a plan that includes API access',
    fr: "L'API est disponible avec un plan incluant l’accès API",
  },
  'auth.invalidAdminToken': {
    en: 'Invalid admin token',
    fr: "Jeton d'administration invalide",
  },
  'auth.invalidReaderToken': {
    en: 'Missing or invalid items reader token',
    fr: 'Jeton de lecture des éléments absent ou invalide',
  },
  'auth.invalidPrincipal': {
    en: 'Missing or invalid principal signature',
    fr: 'Signature du principal absente ou invalide',
  },
  'account.notFound': { en: 'Account not found', fr: 'Compte introuvable' },
  'account.emailTaken': {
    en: 'An account with this email already exists',
    fr: 'Un compte avec cette adresse e-mail existe déjà',
  },
  'apiKey.notFound': { en: 'API key not found', fr: 'Clé API introuvable' },
  'auth.scannerVerdictsOnly': {
    en: 'A scanner credential may only record verdicts',
    fr: "Un identifiant de scanner ne peut qu'enregistrer des verdicts",
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
    fr: "Cette clé API n'a pas la portée « {scope} »",
  },
  'auth.sessionOnly': {
    en: 'Only a signed-in console session can do this, not an API key',
    fr: 'Seule une session connectée à la console peut faire cela, pas une clé API',
  },
  'session.required': { en: 'You are not signed in', fr: "Vous n'êtes pas connecté" },
  'session.reauthenticate': {
    en: 'Enter your password again to do this (you signed in more than {minutes} minutes ago)',
    fr: 'Saisissez de nouveau votre mot de passe pour faire cela (vous vous êtes connecté il y a plus de {minutes} minutes)',
  },
  'password.wrongCurrent': { en: 'The current password is not right', fr: 'Le mot de passe actuel est incorrect' },
  'password.noneSet': {
    en: 'This account has no password (it signs in through single sign-on or links); ask for a reset link to set one',
    fr: "Ce compte n'a pas de mot de passe (il se connecte par authentification unique ou par lien) ; demandez un lien de réinitialisation pour en définir un",
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
    fr: "Trop d'inscriptions depuis cette adresse ; réessayez dans {seconds} s",
  },
  'links.throttled': {
    en: 'Too many link requests; retry in {seconds} s',
    fr: 'Trop de demandes de lien ; réessayez dans {seconds} s',
  },
  'signUp.closed': { en: 'Sign-up is closed on this server', fr: 'Les inscriptions sont fermées sur ce serveur' },
  'signUp.invitationRequired': {
    en: 'Sign-up needs an invitation link',
    fr: "L'inscription nécessite un lien d'invitation",
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
    fr: "Trop d'e-mails envoyés à cette adresse aujourd'hui ; réessayez dans {hours} h",
  },
  'mail.quotaWorkspace': {
    en: 'This workspace sent too many invitation mails today; retry in {hours} h, or share the link without email',
    fr: "Cet espace de travail a envoyé trop d'invitations par e-mail aujourd'hui ; réessayez dans {hours} h, ou partagez le lien sans e-mail",
  },
  'mail.notConfigured': {
    en: 'Password reset by email is not configured; ask your operator for a reset link',
    fr: "La réinitialisation par e-mail n'est pas configurée ; demandez un lien à votre opérateur",
  },
  'oidc.throttled': {
    en: 'Too many single sign-on attempts from this address; retry in {seconds} s',
    fr: "Trop de tentatives d'authentification unique depuis cette adresse ; réessayez dans {seconds} s",
  },
  'oidc.notConfigured': {
    en: 'Single sign-on is not configured',
    fr: "L'authentification unique n'est pas configurée",
  },
  'oidc.failed': {
    en: 'Single sign-on failed; try again',
    fr: "L'authentification unique a échoué ; réessayez",
  },
  'oidc.linkRequired': {
    en: 'An account with this email address already exists: sign in to it, then link single sign-on from your profile',
    fr: "Un compte avec cette adresse e-mail existe déjà : connectez-vous à ce compte, puis liez l'authentification unique depuis votre profil",
  },
  'oidc.linkedElsewhere': {
    en: 'This single sign-on identity is already linked to another account',
    fr: "Cette identité d'authentification unique est déjà liée à un autre compte",
  },
  'email.notVerified': {
    en: 'Verify your email address first: open the link we mailed you',
    fr: "Vérifiez d'abord votre adresse e-mail : ouvrez le lien que nous vous avons envoyé",
  },
  'signIn.unverified': {
    en: 'Verify your email address first: a new link is on its way to it',
    fr: "Vérifiez d'abord votre adresse e-mail : un nouveau lien lui a été envoyé",
  },
  'signIn.unverifiedNoMail': {
    en: 'Verify your email address first with the link mailed to it; no more can be sent to it today',
    fr: "Vérifiez d'abord votre adresse e-mail avec le lien qui lui a été envoyé ; aucun autre ne peut lui être envoyé aujourd'hui",
  },
  'verify.wrongPassword': {
    en: 'This is not the password chosen at the sign-up this link confirms',
    fr: "Ce n'est pas le mot de passe choisi lors de l'inscription que ce lien confirme",
  },
  'identity.notFound': { en: 'Linked identity not found', fr: 'Identité liée introuvable' },
  'identity.lastSignIn': {
    en: 'This identity is the only way to sign in to this account: set a password first (a reset link sets one)',
    fr: "Cette identité est le seul moyen de se connecter à ce compte : définissez d'abord un mot de passe (un lien de réinitialisation en définit un)",
  },
  'oidc.reauthenticateOther': {
    en: 'Confirm with the single sign-on identity of this account',
    fr: "Confirmez avec l'identité d'authentification unique de ce compte",
  },
  'oidc.emailNotVerified': {
    en: 'Your identity provider did not confirm your email address',
    fr: "Votre fournisseur d'identité n'a pas confirmé votre adresse e-mail",
  },
  'apiKey.tooMany': {
    en: 'At most {limit} active API keys per account',
    fr: 'Au plus {limit} clés API actives par compte',
  },
  'apiKey.noExpiryRefused': {
    en: 'Keys must expire here, after at most {limit} days',
    fr: 'Les clés doivent expirer ici, après au plus {limit} jours',
  },
  'apiKey.expiresAtRange': {
    en: '"expiresAt" must be between 1 day and {limit} days from now',
    fr: '« expiresAt » doit se situer entre 1 jour et {limit} jours à partir de maintenant',
  },
  'apiKey.notActive': {
    en: 'Only an active API key can be rolled',
    fr: 'Seule une clé API active peut être renouvelée',
  },
  'apiKey.boundToOtherWorkspace': {
    en: "This API key is bound to another workspace: its searches apply that workspace's policy only",
    fr: "Cette clé API est liée à un autre espace de travail : ses recherches n'appliquent que la politique de celui-ci",
  },
  'auth.tooManyFailures': {
    en: 'Too many failed authentications from this address; retry in {seconds} s',
    fr: "Trop d'échecs d'authentification depuis cette adresse ; réessayez dans {seconds} s",
  },
  'rateLimit.exceeded': {
    en: 'Rate limit exceeded; retry in {seconds} s',
    fr: 'Limite de requêtes dépassée ; réessayez dans {seconds} s',
  },
  'principal.expired': {
    en: 'The request waited too long inside the service; retry shortly',
    fr: 'La requête a trop attendu dans le service ; réessayez dans un instant',
  },
} satisfies Record<string, Record<Language, string>>;
