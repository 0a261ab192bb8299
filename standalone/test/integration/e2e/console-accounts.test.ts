/**
 * The console's linked single sign-on, in headless Chromium against the real
 * stack and a real provider (oidc-provider) started in the test: a person
 * signed in with their password links the provider from the profile, sees
 * the identity listed and removes it; a password reset offers to unlink
 * every identity. Every page is checked with axe-core and must report no
 * CSP violation. Skipped without /usr/bin/chromium.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { loggedVerificationLink, startStack, type Stack } from './helpers';
import { cspViolations, hasChromium, launchChromium } from './console-browser';
import { WIDE, expectAccessible, screenshotDir, shoot } from './console-pages';

const describeBrowser = hasChromium ? describe : describe.skip;
const PASSWORD = 'copper-kettle-whistles-twice';
const CLIENT = { id: 'skills-console', secret: 'a-client-secret-for-the-console-test' };

describeBrowser('the console in headless Chromium: single sign-on linked to an account', () => {
  const server = createServer();
  let issuer: string;
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let violations: string[];
  let shots: string;
  const email = `linked-${Date.now()}@example.com`;

  beforeAll(async () => {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const env = {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_NAME: 'Test IdP',
    };
    [stack, browser, shots] = await Promise.all([startStack({ env }), launchChromium(), screenshotDir()]);
    const { default: Provider } = await import('oidc-provider');
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uris: [`${stack.info.url}/api/v1/auth/oidc/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      findAccount: async (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: async () => ({ sub, email: `${sub}@idp.example`, email_verified: true }),
      }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      cookies: { keys: ['cookie-signing-key-of-the-console-test'] },
    });
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => callback(req, res));

    // a person with a verified address, signed in with the password: a recent sign-in, which linking needs
    const logged = stack.stdout().length;
    await stack.client.call('POST', '/api/v1/auth/sign-up', {
      json: { email, password: PASSWORD },
      headers: { origin: stack.info.url },
    });
    const token = /#token=(.+)$/.exec(await loggedVerificationLink(stack, logged))?.[1];
    await stack.client.call('POST', '/api/v1/auth/verify-email', {
      json: { token, password: PASSWORD },
      headers: { origin: stack.info.url },
    });
    const context = await browser.newContext({ viewport: WIDE });
    violations = cspViolations(context);
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${stack.info.url}/console/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  }, 180_000);
  afterEach(() => {
    expect(violations.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
    server.closeAllConnections();
    server.close();
  }, 30_000);

  /** From the profile, through the provider's own login and consent pages as `login`, back to the profile. */
  async function linkAs(login: string): Promise<void> {
    // signed out at the provider first (its session cookie), so it asks who this is
    await page.context().clearCookies({ name: /^_session/ });
    await page.getByRole('button', { name: 'Link Test IdP' }).click();
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
  }

  const identityRow = (login: string) =>
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: login, exact: true }) });

  it('links the provider from the profile, lists the identity and removes it', async () => {
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Single sign-on' }).waitFor();
    await page.getByText('No single sign-on identity is linked to this account.').waitFor();

    await linkAs('pat');
    await identityRow('pat').getByRole('cell', { name: issuer, exact: true }).waitFor();
    await expectAccessible(page, 'profile with a linked identity');
    await shoot(page, shots, 'profile-identities');

    await identityRow('pat')
      .getByRole('button', { name: `Remove identity pat of ${issuer}` })
      .click();
    await page.getByRole('status').filter({ hasText: 'Single sign-on identity unlinked' }).waitFor();
    await page.getByText('No single sign-on identity is linked to this account.').waitFor();
    await expectAccessible(page, 'profile with no linked identity');
    await shoot(page, shots, 'profile-identities-empty');
    const listed = await page.evaluate(
      async () => (await (await fetch('/api/v1/me/identities')).json()) as { data: { identities: unknown[] } },
    );
    expect(listed.data.identities).toEqual([]);
  }, 90_000);

  it("shows the API's error where the identities would be, and lists them again when asked", async () => {
    const busy = { error: 'The server is busy; retry shortly' };
    await page.route('**/api/v1/me/identities', (route) =>
      route.fulfill({ status: 503, headers: { 'Retry-After': '1' }, json: busy }),
    );
    await page.reload();
    const failed = page.getByRole('alert').filter({ hasText: busy.error });
    await failed.waitFor();
    await expectAccessible(page, 'profile whose identities could not be loaded');
    await shoot(page, shots, 'profile-identities-error');
    await page.unroute('**/api/v1/me/identities');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('No single sign-on identity is linked to this account.').waitFor();
    expect(await failed.count()).toBe(0);
  }, 60_000);

  it('offers on the reset page to unlink every identity, and does it when asked', async () => {
    await linkAs('quin');
    await identityRow('quin').waitFor();
    const account = await page.evaluate(
      async () => (await (await fetch('/api/v1/auth/session')).json()) as { data: { account: { id: string } } },
    );
    const made = await stack.client.call('POST', `/admin/v1/accounts/${account.data.account.id}/links`, {
      token: stack.admin,
      json: { purpose: 'password-reset' },
    });

    const reset = await (await browser.newContext({ viewport: WIDE })).newPage();
    reset.setDefaultTimeout(10_000);
    await reset.goto(made.body.data.link.url as string);
    await reset.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await reset.getByRole('textbox', { name: 'New password' }).fill('a-brand-new-copper-kettle');
    await reset.getByRole('checkbox', { name: 'Also unlink all single sign-on' }).check();
    await expectAccessible(reset, 'reset page');
    await shoot(reset, shots, 'reset-unlink');
    await reset.getByRole('button', { name: 'Set password and sign in' }).click();
    await reset.getByRole('heading', { name: 'API keys' }).waitFor();
    await reset.getByRole('link', { name: 'Profile' }).click();
    await reset.getByText('No single sign-on identity is linked to this account.').waitFor();
    await reset.context().close();
  }, 90_000);
});
