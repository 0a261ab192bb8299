/** The console: who is signed in decides between the sign-in pages and the signed-in area (routes.tsx). */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, client, type SignedIn } from './api';
import { ErrorMessage } from './components/form';
import { useAction, useLoad } from './hooks';
import { InvitationPage } from './pages/invitation';
import { ResetPage, SignInLinkPage } from './pages/link';
import { VerifyEmailPage } from './pages/verify-email';
import { ProfilePage } from './pages/profile';
import { SignInPage } from './pages/sign-in';
import { SignUpPage } from './pages/sign-up';
import { Link, navigate, usePage } from './router';
import { SECTIONS, sectionOf, signedInPage } from './routes';

const SIGNED_OUT_PAGES = new Set(['/sign-in', '/sign-up', '/link', '/reset', '/verify']);

export function App() {
  const page = usePage();
  const session = useLoad(() => client.getSession().then((s) => s ?? null), 'session');
  const auth = useLoad(() => client.authOptions(), 'options');
  const options = auth.data;
  const error = session.error ?? auth.error;
  // signing in or out in this tab decides; until then, the session the browser came with
  const [changed, setSignedIn] = useState<SignedIn | null>();
  const signedIn = changed !== undefined ? changed : session.data;

  const onSignedIn = useCallback((s: SignedIn) => {
    setSignedIn(s);
    navigate('/keys', { replace: true });
  }, []);

  // Signed out once the server says so: a failed request leaves the person
  // signed in with the reason shown, since the session would still be live.
  const signOut = useAction(async () => {
    try {
      await client.signOut();
    } catch (err) {
      // a session the server no longer knows is signed out already
      if (!(err instanceof ApiError && err.status === 401)) throw err;
    }
    setSignedIn(null);
    navigate('/sign-in');
  });

  const signedInArea =
    signedIn && !SIGNED_OUT_PAGES.has(page) && page !== '/invitations'
      ? signedInPage(page, signedIn.account)
      : undefined;
  // Titles say where one is, for the tab and for screen readers announcing the page.
  const signedOutTitles: Record<string, string> = {
    '/sign-up': 'Create an account',
    '/sign-in': 'Sign in',
    '/reset': 'New password',
    '/verify': 'Verify email',
    '/invitations': 'Invitation',
  };
  const title =
    signedInArea?.title ??
    signedOutTitles[page] ??
    (signedIn ? (SIGNED_OUT_PAGES.has(page) ? 'API keys' : 'Profile') : 'Sign in');
  useEffect(() => {
    document.title = `${title} · Skills Catalog console`;
  }, [title]);

  if (signedIn === undefined && !error) return <p className="loading">Loading…</p>;

  let content;
  if (page === '/link') content = <SignInLinkPage onSignedIn={onSignedIn} />;
  else if (page === '/reset') content = <ResetPage onSignedIn={onSignedIn} />;
  else if (page === '/verify') content = <VerifyEmailPage onSignedIn={setSignedIn} />;
  else if (page === '/invitations')
    content = <InvitationPage signedIn={signedIn ?? null} options={options} onSignedIn={setSignedIn} />;
  else if (!signedIn)
    content =
      page === '/sign-up' ? <SignUpPage options={options} /> : <SignInPage options={options} onSignedIn={onSignedIn} />;
  else if (SIGNED_OUT_PAGES.has(page)) content = signedInPage('/keys', signedIn.account)?.content;
  else content = signedInArea?.content ?? <ProfilePage account={signedIn.account} />;
  const section = SIGNED_OUT_PAGES.has(page) ? '/keys' : sectionOf(page);

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Skills Catalog</span>
        {signedIn && (
          <nav aria-label="Console">
            {SECTIONS.map((s) => (
              <Link key={s.to} to={s.to} aria-current={s.to === section ? 'page' : undefined}>
                {s.label}
              </Link>
            ))}
          </nav>
        )}
        {signedIn && (
          <div className="who">
            <span className="email">{signedIn.account.email}</span>
            <button type="button" onClick={() => void signOut.run()} disabled={signOut.busy}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorMessage message={error ?? signOut.error} />
        {content}
      </main>
    </>
  );
}
