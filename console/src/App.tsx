/** The console: who is signed in decides between the sign-in pages and the profile area. */
import { useCallback, useEffect, useState } from 'react';
import { api, type AuthOptions, type SignedIn } from './api';
import { ErrorMessage, messageOf } from './components/form';
import { ApiKeysPage } from './pages/api-keys';
import { ResetPage, SignInLinkPage } from './pages/link';
import { ProfilePage } from './pages/profile';
import { SignInPage } from './pages/sign-in';
import { SignUpPage } from './pages/sign-up';
import { Link, navigate, usePage } from './router';

const SIGNED_OUT_PAGES = new Set(['/sign-in', '/sign-up', '/link', '/reset']);

export function App() {
  const page = usePage();
  const [signedIn, setSignedIn] = useState<SignedIn | null>();
  const [options, setOptions] = useState<AuthOptions>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    api.session().then((s) => setSignedIn(s ?? null), (err: unknown) => setError(messageOf(err)));
    api.options().then(setOptions, (err: unknown) => setError(messageOf(err)));
  }, []);

  const onSignedIn = useCallback((s: SignedIn) => {
    setSignedIn(s);
    navigate('/keys', { replace: true });
  }, []);

  async function signOut() {
    try {
      await api.signOut();
    } finally {
      setSignedIn(null);
      navigate('/sign-in');
    }
  }

  // Titles say where one is, for the tab and for screen readers announcing the page.
  useEffect(() => {
    const titles: Record<string, string> = { '/keys': 'API keys', '/sign-up': 'Create an account', '/sign-in': 'Sign in', '/reset': 'New password' };
    document.title = `${titles[page] ?? (signedIn ? 'Profile' : 'Sign in')} · Skills Catalog console`;
  }, [page, signedIn]);

  if (signedIn === undefined && !error) return <p className="loading">Loading…</p>;

  let content;
  if (page === '/link') content = <SignInLinkPage onSignedIn={onSignedIn} />;
  else if (page === '/reset') content = <ResetPage onSignedIn={onSignedIn} />;
  else if (!signedIn) content = page === '/sign-up' ? <SignUpPage options={options} onSignedIn={onSignedIn} /> : <SignInPage options={options} onSignedIn={onSignedIn} />;
  else if (page === '/keys' || SIGNED_OUT_PAGES.has(page)) content = <ApiKeysPage account={signedIn.account} />;
  else content = <ProfilePage account={signedIn.account} />;

  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Skills Catalog</span>
        {signedIn && (
          <nav aria-label="Console">
            <Link to="/" aria-current={page === '/' ? 'page' : undefined}>
              Profile
            </Link>
            <Link to="/keys" aria-current={page === '/keys' ? 'page' : undefined}>
              API keys
            </Link>
          </nav>
        )}
        {signedIn && (
          <div className="who">
            <span className="email">{signedIn.account.email}</span>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        <ErrorMessage message={error} />
        {content}
      </main>
    </>
  );
}
