/**
 * The console in headless Chromium against the real stack: a person signs
 * up, verifies the address with the link the server logged and the password
 * of the sign-up, signs in, creates a read-only key and uses it (search 200, a
 * collection write 403 naming the scope), revokes it (401), rolls another
 * and sees both keys work during the grace period; the demo sign-in link of
 * the banner works once. Every page is checked with axe-core and must
 * report no CSP violation; screenshots (narrow and wide) go to
 * $CONSOLE_SCREENSHOTS, or a temp dir. Skipped without /usr/bin/chromium.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '@skills/common/testing';
import { TEXTS, loggedVerificationLink, startStack, type Stack } from './helpers';
import { cspViolations, hasChromium, launchChromium, seriousViolations } from './console-browser';

const describeBrowser = hasChromium ? describe : describe.skip;
const PASSWORD = 'orange-tractor-hums-at-dawn';
const NEW_PASSWORD = 'violet-harbour-sings-at-noon';
const NARROW = { width: 390, height: 844 };
const WIDE = { width: 1280, height: 900 };

describeBrowser('the console in headless Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let violations: string[];
  let shots: string;
  const email = `person-${Date.now()}@example.com`;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
    shots = process.env.CONSOLE_SCREENSHOTS ?? (await mkdtemp(join(tmpdir(), 'console-shots-')));
    await mkdir(shots, { recursive: true });
    context = await browser.newContext({ viewport: WIDE });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    violations = cspViolations(context);
  }, 180_000);
  // each test answers for the violations its own pages met
  afterEach(() => {
    expect(violations.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
  }, 30_000);

  const shoot = async (name: string) => {
    for (const [size, viewport] of [
      ['wide', WIDE],
      ['narrow', NARROW],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(shots, `console-${name}-${size}.png`), fullPage: true });
    }
    await page.setViewportSize(WIDE);
  };
  const accessible = async (what: string) =>
    expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });
  const call = (method: string, path: string, key: string) =>
    fetch(`${stack.info.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-language': 'fr' },
      body: method === 'GET' ? undefined : '{"name":"x"}',
    });

  it('sees a Content-Security-Policy violation in any tab when one happens (the check after each test relies on it)', async () => {
    const probe = await context.newPage();
    await probe.goto(`${stack.info.url}/console/sign-in`);
    // a string, evaluated in the page: the test's own compilation has no DOM
    await probe.evaluate(
      `document.head.appendChild(Object.assign(document.createElement('script'), { textContent: 'window.inlineRan = true' }))`,
    );
    await eventually(() => violations.length > 0, 'the CSP violation of an inline script', 5_000);
    expect(await probe.evaluate('window.inlineRan')).toBeUndefined();
    violations.splice(0);
    await probe.close();
  });

  it('signs a person up, with labelled, accessible forms', async () => {
    await page.goto(`${stack.info.url}/console/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await accessible('sign-in page');
    await shoot('sign-in');
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await accessible('sign-up page');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password1234');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').filter({ hasText: 'too common' }).waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    const logged = stack.stdout().length;
    await page.getByRole('button', { name: 'Create account' }).click();
    // no SMTP on the embedded default: the page says so, and the operator has the link in the log
    await page
      .getByRole('status')
      .filter({ hasText: `Check your email: we sent a message to ${email}.` })
      .waitFor();
    await page.getByText("its operator finds the link in the server's log").waitFor();
    await accessible('sign-up page, account requested');
    await shoot('sign-up-check-email');

    // the person opens the mailed link and enters the sign-up's password: verified and signed in once; the same link again says why not
    const link = await loggedVerificationLink(stack, logged);
    expect(link).toMatch(new RegExp(`^${stack.info.url}/console/verify#token=[A-Za-z0-9_-]{43}$`));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Verify your email address' }).waitFor();
    expect(page.url()).not.toContain('token=');
    await expect(page.title()).resolves.toBe('Verify email · Skills Catalog console');
    await accessible('verify page');
    await shoot('verify');
    await page.getByLabel('Password').fill('not-the-sign-up-password');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'This is not the password chosen at the sign-up this link confirms' })
      .waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Your email address is verified and you are signed in' })
      .waitFor();
    await shoot('verified');
    const again = await context.newPage();
    again.setDefaultTimeout(10_000);
    await again.goto(link);
    await again.getByLabel('Password').fill(PASSWORD);
    await again.getByRole('button', { name: 'Verify and sign in' }).click();
    await again.getByRole('alert').filter({ hasText: 'This link is invalid, already used or expired' }).waitFor();
    await again.close();
    await page.getByRole('link', { name: 'Go to the console' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('Your plan (free) has no API access yet').waitFor();
  }, 60_000);

  it('stays signed in when signing out fails, then signs out and in again with the keyboard', async () => {
    // an overloaded gateway: the session is still live, so the page must not pretend otherwise
    await page.route('**/api/v1/auth/session', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Overloaded' }) })
        : route.continue(),
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('alert').filter({ hasText: 'Overloaded' }).waitFor();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.unroute('**/api/v1/auth/session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  }, 60_000);

  it('creates a read-only key: it searches (200), a collection write gets 403 naming the scope, revoked it gets 401', async () => {
    // new accounts are free; the operator moves this one to pro
    const session = await page.evaluate(
      async () => (await (await fetch('/api/v1/auth/session')).json()) as { data: { account: { id: string } } },
    );
    const patched = await stack.client.call('PATCH', `/admin/v1/accounts/${session.data.account.id}`, {
      token: stack.admin,
      json: { plan: 'pro' },
    });
    expect(patched.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await accessible('API keys page');

    await page.getByLabel('Key name').fill('reader');
    await expect(page.getByRole('checkbox', { name: 'Search the catalog' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Read collections' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'Change collections' }).isChecked()).resolves.toBe(false);
    await page.getByLabel('Expires').selectOption('30');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByLabel('The new API key').textContent()) ?? '';
    expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    await accessible('new key panel');
    await shoot('new-key');

    expect((await call('GET', '/api/v1/skills?q=docker', key)).status).toBe(200);
    const write = await call('PATCH', `/api/v1/me/collections/${stack.info.collectionId}`, key);
    expect(write.status).toBe(403);
    expect(await write.json()).toEqual({ error: "Cette clé API n'a pas la portée « collections:write »" });

    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page
      .getByRole('row', { name: /reader/ })
      .getByText('search:read, collections:read')
      .waitFor();
    await page.getByRole('button', { name: 'Revoke key reader' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “reader”?' });
    await dialog.waitFor();
    await accessible('revoke dialog');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
    const revoked = await call('GET', '/api/v1/skills', key);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ error: TEXTS.invalidKey.fr });
  }, 90_000);

  it('rolls a key with a grace period: the old and the new key both work', async () => {
    await page.getByLabel('Key name').fill('deploy');
    await page.getByRole('checkbox', { name: 'Change collections' }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const old = (await page.getByLabel('The new API key').textContent()) ?? '';
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.getByRole('button', { name: 'Roll key deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll “deploy”?' });
    await dialog.getByRole('radio', { name: '1 hour' }).check();
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await page.getByRole('status').filter({ hasText: 'the old one works until' }).waitFor();
    const rolled = (await page.getByLabel('The new API key').textContent()) ?? '';
    expect(rolled).not.toBe(old);
    for (const key of [old, rolled]) expect((await call('GET', '/api/v1/skills', key)).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await shoot('keys');
  }, 60_000);

  it('shows the profile with the plan and the sessions, and signs the other sessions out', async () => {
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(`${stack.info.url}/console/sign-in`);
    await second.getByLabel('Email').fill(email);
    await second.getByLabel('Password').fill(PASSWORD);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await second.getByRole('heading', { name: 'API keys' }).waitFor();

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await page.getByText(email, { exact: true }).first().waitFor();
    await page.getByRole('cell', { name: /this session/ }).waitFor();
    await accessible('profile page');
    await shoot('profile');
    await page.getByRole('button', { name: 'Sign out of every other session' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed out 1 other session' }).waitFor();
    await second.reload();
    await second.getByRole('heading', { name: 'Sign in' }).waitFor();
    await other.close();
  }, 60_000);

  it('asks for the password again when the sign-in is too old to create a key, and offers only lifetimes the server allows', async () => {
    await page.getByRole('link', { name: 'Manage your API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', exact: true }).waitFor();
    // the deployed default: keys live a year at most, so "Never" is not offered
    await expect(page.getByLabel('Expires').locator('option').allTextContents()).resolves.toEqual([
      'In 30 days',
      'In 90 days',
      'In 365 days',
    ]);
    // Ten minutes cannot pass in a test: the first create gets the answer the gateway gives a session signed in
    // longer ago (its rule: gateway/test/integration/profile-password.test.ts); the rest is the real server.
    let refused = false;
    await page.route('**/api/v1/me/api-keys', async (route) => {
      if (route.request().method() !== 'POST' || refused) return route.continue();
      refused = true;
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ error: TEXTS.reauthenticate.en }),
      });
    });
    await page.getByLabel('Key name').fill('after-coffee');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await accessible('password dialog');
    await dialog.getByLabel('Your password').fill('not-my-password-at-all');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The current password is not right' }).waitFor();
    await dialog.getByLabel('Your password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const key = (await page.getByLabel('The new API key').textContent()) ?? '';
    expect(key).toMatch(/^sk_live_/);
    expect((await call('GET', '/api/v1/skills', key)).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.unroute('**/api/v1/me/api-keys');
  }, 60_000);

  it('offers single sign-on in the password dialog where the server names a provider, and asks the server to start it', async () => {
    // This server has no provider: the auth options are made to name one, the 403 is faked as above, and the
    // start is the real server's answer (404, no provider) shown in the dialog.
    await page.route('**/api/v1/auth/options', async (route) => {
      const real = await route.fetch();
      const body = (await real.json()) as { data: Record<string, unknown> };
      await route.fulfill({
        response: real,
        json: { data: { ...body.data, oidc: { name: 'Test IdP', startUrl: '/api/v1/auth/oidc/start' } } },
      });
    });
    await page.route('**/api/v1/me/api-keys', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ error: TEXTS.reauthenticate.en }),
      });
    });
    await page.getByLabel('Key name').fill('by-sso');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.getByRole('button', { name: 'Confirm with Test IdP' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Single sign-on is not configured' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.unroute('**/api/v1/me/api-keys');
    await page.unroute('**/api/v1/auth/options');
  }, 60_000);

  it('changes the password from the profile and, when asked, revokes every API key', async () => {
    await page.getByLabel('Key name').fill('to-revoke');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByLabel('The new API key').textContent()) ?? '';
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect((await call('GET', '/api/v1/skills', key)).status).toBe(200);

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Password' }).waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('checkbox', { name: 'Also revoke all my API keys' }).check();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Password changed; every other session is signed out and \d+ API keys were revoked/ })
      .waitFor();
    await accessible('profile page after a password change');
    expect((await call('GET', '/api/v1/skills', key)).status).toBe(401);
  }, 60_000);

  it("signs the demo account in with the banner's one-time link, once", async () => {
    const demo = await browser.newContext();
    const tab = await demo.newPage();
    await tab.goto(stack.info.signInLink);
    await tab.getByRole('heading', { name: 'API keys' }).waitFor();
    await tab.getByText('demo@skills.example').first().waitFor();
    expect(tab.url()).not.toContain('token=');
    const again = await (await browser.newContext()).newPage();
    await again.goto(stack.info.signInLink);
    await again.getByRole('alert').filter({ hasText: 'invalid, already used or expired' }).waitFor();
    await demo.close();
  }, 60_000);
});
