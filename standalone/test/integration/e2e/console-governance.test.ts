/**
 * The console's governance pages in headless Chromium against the real stack
 * and its sample catalog (docs/governance.md): the policy editor of a
 * workspace, what a team collection shows against it (an entry breaking a
 * rule with the API's reason, the drift of an entry pinned behind its latest
 * release), "update pins" previewed and then applied, the lockfile
 * downloaded, and a webhook endpoint: its secret shown once, a test
 * delivery in its log, disabled. Selectors by role and label; every page
 * checked with axe-core and for CSP violations. Skipped without Chromium.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '@skills/common/testing';
import { startStack, type Json, type Stack } from './helpers';
import { cspViolations, hasChromium, launchChromium } from './console-browser';
import { callFromPage, demoTab, expectAccessible, screenshotDir, shoot } from './console-pages';

const describeBrowser = hasChromium ? describe : describe.skip;

interface SampleItem {
  slug: string;
  name: string;
  type: string;
  license: string | null;
  releases?: Array<{ version: string; yanked?: unknown }>;
}
const DATA = join(__dirname, '..', '..', '..', 'data');
const items = readFileSync(join(DATA, 'sample-catalog.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as SampleItem);
const trust = JSON.parse(readFileSync(join(DATA, 'sample-trust.json'), 'utf8')) as {
  verdicts: Array<{ slug: string; verdict: string }>;
};
const judged = new Set(trust.verdicts.filter((v) => v.verdict !== 'clean').map((v) => v.slug));
const liveReleases = (i: SampleItem) => (i.releases ?? []).filter((r) => !r.yanked).map((r) => r.version);

// `pinned`: an MIT skill with two releases or more and no bad verdict, pinned to its oldest one (it drifts: a newer release);
// `other`: an ISC item, which a policy allowing only MIT refuses
const stableOnly = (i: SampleItem) => (i.releases ?? []).every((r) => !r.version.includes('-'));
const pinned = items.find(
  (i) =>
    i.license === 'MIT' && i.type === 'skill' && liveReleases(i).length >= 2 && stableOnly(i) && !judged.has(i.slug),
) as SampleItem;
const other = items.find(
  (i) => i.license === 'ISC' && liveReleases(i).length >= 1 && !judged.has(i.slug),
) as SampleItem;

describeBrowser('the console in headless Chromium: governed team collections', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let violations: string[];
  let shots: string;
  let workspace: string;
  let collection: string;
  let receiver: Server;
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(String(req.headers['skills-webhook-signature'] ?? ''));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
    // a receiver on this machine is a private target: the operator setting allows it, as in the webhook suites
    [stack, browser] = await Promise.all([
      startStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } }),
      launchChromium(),
    ]);
    shots = await screenshotDir();
    page = await demoTab(stack, browser);
    violations = cspViolations(page.context());
    const made = (await callFromPage(page, 'POST', '/api/v1/workspaces', { name: 'Data platform' })).body as Json;
    workspace = made.data.workspace.id;
    const list = (await callFromPage(page, 'POST', `/api/v1/workspaces/${workspace}/collections`, { name: 'Agents' }))
      .body as Json;
    collection = list.data.collection.id;
    const oldest = liveReleases(pinned).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))[0];
    for (const patch of [{ skillSlug: pinned.slug, version: oldest }, { skillSlug: other.slug }]) {
      const added = await callFromPage(
        page,
        'PATCH',
        `/api/v1/workspaces/${workspace}/collections/${collection}`,
        patch,
      );
      expect(added.status).toBe(200);
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
    await new Promise((ok) => receiver?.close(ok));
  }, 30_000);

  const collectionPage = async () => {
    await page.goto(`${stack.info.url}/console/workspaces/${workspace}/collections/${collection}`);
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
  };
  const entry = (item: SampleItem) =>
    page.getByRole('listitem').filter({ has: page.getByRole('link', { name: item.name, exact: true }) });

  it('sets a policy in the editor, and the collection shows the entry it refuses with the rule', async () => {
    await page.goto(`${stack.info.url}/console/workspaces/${workspace}`);
    const editor = page.getByRole('form', { name: 'Workspace policy' });
    await editor.getByLabel('Allowed licences').fill('MIT');
    await editor.getByRole('button', { name: 'Save policy' }).click();
    await page.getByRole('status').filter({ hasText: 'Policy saved' }).waitFor();
    const stored = (await callFromPage(page, 'GET', `/api/v1/workspaces/${workspace}/policy`)).body as Json;
    expect(stored.data.policy).toMatchObject({
      allowedLicenses: ['MIT'],
      minimumVerdict: 'suspicious',
      deniedSlugs: [],
    });
    // read back from the server, the editor shows what is in force
    await page.reload();
    await expect(page.getByLabel('Allowed licences').inputValue()).resolves.toBe('MIT');
    await expectAccessible(page, 'workspace with its policy');
    await shoot(page, shots, 'workspace-policy');

    await collectionPage();
    await page.getByText('1 entry breaks the workspace policy.').waitFor();
    const refused = entry(other);
    await refused.getByText('Breaks the policy').waitFor();
    await refused
      .getByRole('list', { name: `Why ${other.name} breaks the policy` })
      .getByText(/allowedLicenses/)
      .waitFor();
    await entry(pinned).getByText('Complies').waitFor();
  }, 60_000);

  it('shows the drift of a pin behind its latest release, previews the update, then applies it', async () => {
    const newest = liveReleases(pinned).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
    const behind = entry(pinned);
    await behind.getByText(`Newer release ${newest}`).waitFor();
    await page.getByText('1 entry drifted.').waitFor();
    await expectAccessible(page, 'collection with drift');
    await shoot(page, shots, 'collection-drift');

    await page.getByRole('button', { name: 'Preview pin updates' }).click();
    const preview = page.getByRole('region', { name: 'Pin updates preview' });
    await preview.getByText(new RegExp(`${pinned.slug}: .* → ${newest.replace(/\./g, '\\.')}`)).waitFor();
    // a preview changes nothing
    const before = (await callFromPage(page, 'GET', `/api/v1/workspaces/${workspace}/collections/${collection}`))
      .body as Json;
    expect(before.data.collection.skills.find((s: Json) => s.slug === pinned.slug).pin.version).not.toBe(newest);

    await preview.getByRole('button', { name: /^Apply/ }).click();
    await page.getByRole('status').filter({ hasText: 'updated' }).waitFor();
    await behind.getByText(`Pinned ${newest}`).waitFor();
    await page.getByText('No entry has drifted.').waitFor();
    await expect(behind.getByText(/Newer release/).count()).resolves.toBe(0);
  }, 60_000);

  it('downloads the lockfile with the new pin', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download lockfile' }).click(),
    ]);
    const lockfile = JSON.parse(await readFile(String(await download.path()), 'utf8')) as Json;
    const newest = liveReleases(pinned).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0];
    expect(lockfile.collection).toEqual({ id: collection, name: 'Agents' });
    expect(lockfile.entries.map((e: Json) => [e.slug, e.complies])).toEqual(
      [
        [pinned.slug, true],
        [other.slug, false],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(lockfile.entries.find((e: Json) => e.slug === pinned.slug).version).toBe(newest);
  }, 60_000);

  it('creates a key bound to the workspace, whose searches find only what the policy allows', async () => {
    await page.goto(`${stack.info.url}/console/keys`);
    await page.getByLabel('Key name').fill('team agent');
    await page.getByLabel('Workspace policy').selectOption({ label: 'Data platform' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = String(await page.getByLabel('The new API key').textContent());
    const found = async (item: SampleItem) => {
      const answer = await stack.client.call('GET', `/api/v1/skills?q=${encodeURIComponent(item.name)}&limit=50`, {
        token: key,
      });
      expect(answer.status).toBe(200);
      return (answer.body.data.skills as Json[]).some((s) => s.slug === item.slug);
    };
    // the MIT skill is found, the ISC item the policy refuses is not
    await expect(found(pinned)).resolves.toBe(true);
    await expect(found(other)).resolves.toBe(false);
  }, 60_000);

  it('adds a webhook endpoint whose secret shows once, sends a test delivery to it, and disables it', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await page.goto(`${stack.info.url}/console/workspaces/${workspace}`);
    const form = page.getByRole('form', { name: 'New webhook endpoint' });
    await form.getByLabel('Endpoint URL').fill(url);
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByLabel('The signing secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect(page.getByLabel('The signing secret').count()).resolves.toBe(0);

    await page.getByRole('button', { name: `Send test to ${url}` }).click();
    await page.getByRole('status').filter({ hasText: 'Test delivery queued' }).waitFor();
    await page.getByRole('button', { name: `Deliveries to ${url}` }).click();
    const log = page.getByRole('table', { name: `Deliveries to ${url}` });
    // the test's row says delivered once the receiver answered: refresh until then
    const testRow = log.getByRole('row').filter({ has: page.getByRole('cell', { name: 'webhook.test', exact: true }) });
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh deliveries' }).click();
        return (await testRow.getByText('delivered', { exact: true }).count()) === 1;
      },
      'the test delivery delivered in the log',
      30_000,
      250,
    );
    expect(received.length).toBeGreaterThan(0);
    for (const signature of received) expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    await expectAccessible(page, 'webhooks with a delivery');
    await shoot(page, shots, 'workspace-webhooks');

    await page.getByRole('button', { name: `Disable ${url}` }).click();
    await page.getByRole('status').filter({ hasText: 'Endpoint disabled.' }).waitFor();
    const hooks = (await callFromPage(page, 'GET', `/api/v1/workspaces/${workspace}/webhooks`)).body as Json;
    expect(hooks.data.webhooks.map((w: Json) => [w.url, w.enabled])).toEqual([[url, false]]);
    expect(violations).toEqual([]);
  }, 90_000);
});
