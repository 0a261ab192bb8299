/**
 * Team workspaces in the console, in headless Chromium against the real
 * stack, with two people in two browser contexts: one creates a workspace
 * and a team collection and invites the other by a link; the other signs up
 * from the link, verifies the address and accepts; made a viewer, they find the controls they may
 * not use disabled and the API refusing the write (403); removed, their
 * access ends. Every page is checked with axe-core and for CSP violations;
 * screenshots go to $CONSOLE_SCREENSHOTS (or a temp dir).
 */
import type { Browser, Page } from 'playwright-core';
import { TEXTS, loggedVerificationLink, startStack, type Stack } from './helpers';
import { cspViolations, hasChromium, launchChromium } from './console-browser';
import { WIDE, callFromPage, expectAccessible, screenshotDir, shoot } from './console-pages';

const describeBrowser = hasChromium ? describe : describe.skip;
const PASSWORD = 'violet-harbour-kettle-73';

describeBrowser('the console in headless Chromium: team workspaces, with two people', () => {
  let stack: Stack;
  let browser: Browser;
  let owner: Page;
  let guest: Page;
  let violations: string[];
  let shots: string;
  let invitationUrl = '';
  let workspacePath = '';
  const stamp = Date.now();
  const ownerEmail = `owner-${stamp}@example.com`;
  const guestEmail = `guest-${stamp}@example.com`;

  async function person(): Promise<Page> {
    const page = await (await browser.newContext({ viewport: WIDE })).newPage();
    page.setDefaultTimeout(10_000);
    const seen = cspViolations(page);
    page.on('close', () => violations.push(...seen));
    return page;
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
    shots = await screenshotDir();
    violations = [];
    owner = await person();
    guest = await person();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
  }, 30_000);

  it('creates a workspace (its creator is the owner) and a team collection', async () => {
    await owner.goto(`${stack.info.url}/console/sign-up`);
    await owner.getByLabel('Email').fill(ownerEmail);
    await owner.getByLabel('Password').fill(PASSWORD);
    const logged = stack.stdout().length;
    await owner.getByRole('button', { name: 'Create account' }).click();
    await owner
      .getByRole('status')
      .filter({ hasText: `Check your email: we sent a message to ${ownerEmail}.` })
      .waitFor();
    // the link (in the log: no SMTP here), with the sign-up's password, verifies the address and signs in
    await owner.goto(await loggedVerificationLink(stack, logged));
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Verify and sign in' }).click();
    await owner.getByRole('link', { name: 'Go to the console' }).click();
    await owner.getByRole('heading', { name: 'API keys' }).waitFor();
    await owner.getByRole('link', { name: 'Workspaces' }).click();
    await owner.getByRole('heading', { name: 'Team workspaces' }).waitFor();
    await owner.getByText('You are in no workspace yet.').waitFor();
    await expectAccessible(owner, 'workspaces page');
    await owner.getByLabel('Workspace name').fill('Platform');
    await owner.getByRole('button', { name: 'Create workspace' }).click();
    await owner.getByRole('heading', { name: 'Platform', level: 1 }).waitFor();
    await owner.getByRole('status').filter({ hasText: 'you are its owner' }).waitFor();
    workspacePath = new URL(owner.url()).pathname;
    await owner.getByLabel('Collection name').fill('Release kit');
    await owner.getByRole('button', { name: 'Create collection' }).click();
    await owner.getByRole('heading', { name: 'Release kit', level: 1 }).waitFor();
    await owner.getByRole('link', { name: '← Platform' }).click();
    await owner.getByRole('link', { name: 'Release kit' }).waitFor();
  }, 60_000);

  it('invites by a link that expires, shown once, listed as pending', async () => {
    await owner.getByLabel('Role', { exact: true }).selectOption('member');
    await owner.getByLabel('Link expires').selectOption('14');
    await owner.getByRole('button', { name: 'Create invitation link' }).click();
    invitationUrl = (await owner.getByLabel('The invitation link').textContent()) ?? '';
    expect(invitationUrl).toMatch(/\/console\/invitations#token=[A-Za-z0-9_-]{43}$/);
    await expectAccessible(owner, 'workspace page with a new link');
    await owner.getByRole('button', { name: 'Done' }).click();
    await owner.getByRole('row', { name: /Anyone with the link member/ }).waitFor();
    await shoot(owner, shots, 'workspace');
  }, 60_000);

  it('lets the second person sign up from the link and accept it', async () => {
    await guest.goto(invitationUrl);
    await guest.getByRole('heading', { name: 'Join a team workspace' }).waitFor();
    expect(guest.url()).not.toContain('token=');
    await guest.getByRole('button', { name: 'No account yet? Create one' }).click();
    await guest.getByLabel('Email').fill(guestEmail);
    await guest.getByLabel('Password').fill(PASSWORD);
    const logged = stack.stdout().length;
    await guest.getByRole('button', { name: 'Create account' }).click();
    await guest
      .getByRole('status')
      .filter({ hasText: `Check your email: we sent a message to ${guestEmail}.` })
      .waitFor();
    // not signed in before the mailed link is opened
    await guest.getByRole('button', { name: 'I opened the link: continue' }).click();
    await guest
      .getByRole('alert')
      .filter({ hasText: 'Not signed in yet: open the link from the mail first.' })
      .waitFor();

    // the mailed link (in the log: no SMTP here), opened in another tab of the same browser, signs in; then accept in this one
    const mail = await guest.context().newPage();
    const seen = cspViolations(mail);
    await mail.goto(await loggedVerificationLink(stack, logged));
    await mail.getByLabel('Password').fill(PASSWORD);
    await mail.getByRole('button', { name: 'Verify and sign in' }).click();
    await mail.getByRole('status').filter({ hasText: 'Your email address is verified' }).waitFor();
    await mail.close();
    violations.push(...seen);
    await guest.getByRole('button', { name: 'I opened the link: continue' }).click();
    // the terms appear only now, on the page: the mail named no workspace
    await guest.getByText('You are invited to Platform as').waitFor();
    await expectAccessible(guest, 'invitation page');
    await shoot(guest, shots, 'invitation');
    await guest.getByRole('button', { name: 'Accept invitation' }).click();
    await guest.getByRole('status').filter({ hasText: 'You joined Platform as member.' }).waitFor();
    await guest.getByRole('link', { name: 'Open the workspace' }).click();
    await guest.getByRole('heading', { name: 'Platform', level: 1 }).waitFor();
  }, 60_000);

  it('makes them a viewer: their controls are disabled and the API refuses their write', async () => {
    await owner.reload();
    await owner.getByText('No pending invitation.').waitFor();
    await owner.getByLabel(`Role of ${guestEmail}`).selectOption('viewer');
    await owner
      .getByRole('status')
      .filter({ hasText: `${guestEmail} is now viewer.` })
      .waitFor();

    await guest.reload();
    await guest.getByText('You are viewer: reads only.').waitFor();
    await expect(guest.getByRole('button', { name: 'Create collection' }).isDisabled()).resolves.toBe(true);
    await expect(guest.getByLabel(`Role of ${ownerEmail}`).count()).resolves.toBe(0);
    await expect(guest.getByRole('heading', { name: 'Invite people' }).count()).resolves.toBe(0);
    await expectAccessible(guest, 'workspace page as a viewer');
    await guest.getByRole('link', { name: 'Release kit' }).click();
    await guest.getByText('You are a viewer in this workspace').waitFor();
    for (const control of ['Save changes', 'Delete collection'])
      await expect(guest.getByRole('button', { name: control }).isDisabled()).resolves.toBe(true);
    await expect(guest.getByLabel('Find a skill').count()).resolves.toBe(0);
    await expectAccessible(guest, 'team collection as a viewer');

    const workspaceId = workspacePath.split('/').pop() ?? '';
    const write = await callFromPage(guest, 'POST', `/api/v1/workspaces/${workspaceId}/collections`, {
      name: 'Sneaky',
    });
    expect(write).toEqual({ status: 403, body: { error: TEXTS.roleTooLow.en } });
  }, 60_000);

  it('removes them: their access ends at once', async () => {
    await owner.getByRole('button', { name: `Remove ${guestEmail}` }).click();
    await owner
      .getByRole('dialog', { name: `Remove ${guestEmail} from the workspace?` })
      .getByRole('button', { name: 'Remove member' })
      .click();
    await owner.getByRole('status').filter({ hasText: 'their access ended' }).waitFor();
    await owner.getByRole('row', { name: new RegExp(guestEmail) }).waitFor({ state: 'detached' });

    await guest.goto(`${stack.info.url}${workspacePath}`);
    await guest.getByRole('alert').filter({ hasText: TEXTS.noAccess.en }).waitFor();
    await guest.getByRole('link', { name: 'Workspaces' }).click();
    await guest.getByText('You are in no workspace yet.').waitFor();
  }, 60_000);

  it('met no Content-Security-Policy violation on any page', async () => {
    await owner.close();
    await guest.close();
    expect(violations).toEqual([]);
  });
});
