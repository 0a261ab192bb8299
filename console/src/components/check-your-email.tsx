import { Status } from './form';

/**
 * What follows a sign-up: the server answers the same for a new and a taken address, so the page can only say
 * what the mail will say. Where the server sends no mail, its operator has the link.
 */
export function CheckYourEmail({ email, mailed }: { email: string; mailed: boolean }) {
  return (
    <Status>
      Check your email: we sent a message to {email}. If the address is new, open its link and enter the password you
      just chose to verify it and sign in; if it already has an account, the message says how to sign in.
      {!mailed && " This server sends no mail: its operator finds the link in the server's log."}
    </Status>
  );
}
