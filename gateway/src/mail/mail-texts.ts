/**
 * The words of every mail, in English and French (the language of the
 * request that caused it). Each kind has its own subject and says what
 * opening its link does, so a person who gets a mail they did not ask for
 * can tell which it is and what ignoring it leaves as it was. No text a user
 * chose travels in them: the address is anyone's to type.
 */
import type { Language } from '@skills/common';

export interface MailText {
  subject: string;
  text: string;
}

export interface LinkMail {
  link: string;
  expiresAt: string;
}

/** What an invitation mail says: only the link, the role and until when; the link's page shows the rest. */
export interface InvitationMail extends LinkMail {
  role: string;
}

const lines = (...parts: string[]): string => parts.join('\n');

/** Each kind of mail, by what it carries. */
export interface MailTexts {
  verification(mail: LinkMail): MailText;
  signUpAttempt(signInLink: string): MailText;
  reset(mail: LinkMail): MailText;
  invitation(mail: InvitationMail): MailText;
}

const TEXTS: Record<Language, MailTexts> = {
  en: {
    verification: ({ link, expiresAt }) => ({
      subject: 'Confirm your sign-up to Skills Catalog',
      text: lines(
        'Someone (we hope you) signed up to Skills Catalog with this address.',
        '',
        `Opening this link and entering the password chosen at that sign-up confirms the address and signs you in (once, until ${expiresAt}):`,
        link,
        '',
        'Without that password the link does nothing. If you did not sign up, ignore this mail: the account stays unconfirmed and nobody can sign in to it.',
      ),
    }),
    signUpAttempt: (link) => ({
      subject: 'Someone tried to sign up to Skills Catalog with your address',
      text: lines(
        'Someone (perhaps you) tried to create a Skills Catalog account with this address, which already has one.',
        'No account was created and nothing changed in yours.',
        '',
        'The sign-in page (opening it changes nothing; "Forgot your password?" there mails a reset link):',
        link,
        '',
        'If it was not you, ignore this mail.',
      ),
    }),
    reset: ({ link, expiresAt }) => ({
      subject: 'Reset your Skills Catalog password',
      text: lines(
        'Someone (we hope you) asked to reset the password of your Skills Catalog account.',
        '',
        `Opening this link lets you choose a new password (once, until ${expiresAt}); choosing one signs every session of the account out, and you may also revoke its API keys and unlink its single sign-on there:`,
        link,
        '',
        'If it was not you, ignore this mail: nothing changes until a new password is chosen.',
      ),
    }),
    invitation: ({ link, role, expiresAt }) => ({
      subject: 'You are invited to a team workspace on Skills Catalog',
      text: lines(
        `You are invited to join a team workspace on Skills Catalog, as ${role}.`,
        '',
        `Opening this link shows who invites you and to which workspace, then lets you join (sign in, or create an account); it works once, until ${expiresAt}:`,
        link,
        '',
        'If you did not expect it, ignore this mail.',
      ),
    }),
  },
  fr: {
    verification: ({ link, expiresAt }) => ({
      subject: 'Confirmez votre inscription à Skills Catalog',
      text: lines(
        "Quelqu'un (vous, nous l'espérons) s'est inscrit à Skills Catalog avec cette adresse.",
        '',
        `Ouvrir ce lien puis saisir le mot de passe choisi lors de cette inscription confirme l'adresse et vous connecte (une fois, jusqu'au ${expiresAt}) :`,
        link,
        '',
        "Sans ce mot de passe, le lien ne fait rien. Si vous ne vous êtes pas inscrit, ignorez ce message : le compte reste non confirmé et personne ne peut s'y connecter.",
      ),
    }),
    signUpAttempt: (link) => ({
      subject: "Quelqu'un a tenté de s'inscrire à Skills Catalog avec votre adresse",
      text: lines(
        "Quelqu'un (vous, peut-être) a tenté de créer un compte Skills Catalog avec cette adresse, qui en a déjà un.",
        "Aucun compte n'a été créé et rien n'a changé dans le vôtre.",
        '',
        "La page de connexion (l'ouvrir ne change rien ; « Mot de passe oublié ? » y envoie un lien de réinitialisation) :",
        link,
        '',
        "Si ce n'était pas vous, ignorez ce message.",
      ),
    }),
    reset: ({ link, expiresAt }) => ({
      subject: 'Réinitialisez votre mot de passe Skills Catalog',
      text: lines(
        "Quelqu'un (vous, nous l'espérons) a demandé à réinitialiser le mot de passe de votre compte Skills Catalog.",
        '',
        `Ouvrir ce lien vous permet de choisir un nouveau mot de passe (une fois, jusqu'au ${expiresAt}) ; en choisir un déconnecte toutes les sessions du compte, et vous pouvez aussi y révoquer ses clés API et délier son authentification unique :`,
        link,
        '',
        "Si ce n'était pas vous, ignorez ce message : rien ne change tant qu'aucun nouveau mot de passe n'est choisi.",
      ),
    }),
    invitation: ({ link, role, expiresAt }) => ({
      subject: 'Vous êtes invité dans un espace de travail Skills Catalog',
      text: lines(
        `Vous êtes invité à rejoindre un espace de travail d'équipe sur Skills Catalog, en tant que ${role}.`,
        '',
        `Ouvrir ce lien montre qui vous invite et dans quel espace, puis vous permet de le rejoindre (connexion ou création de compte) ; il fonctionne une fois, jusqu'au ${expiresAt} :`,
        link,
        '',
        'Si vous ne vous y attendiez pas, ignorez ce message.',
      ),
    }),
  },
};

/** The mails in `language`. */
export function mailTexts(language: Language): MailTexts {
  return TEXTS[language];
}
