/**
 * The console's trust pages in headless Chromium against the real stack and
 * its sample catalog (standalone/data): an item's releases newest first with
 * their digests (copied whole) and verdicts, a release's scans and history,
 * a blocked item explained instead of "add to collection", the report dialog
 * (sent, then refused by the per-account limit with the wait), and the
 * catalog's trust and verified-publisher filters kept in the address.
 * Every page is checked with axe-core and for CSP violations; screenshots go
 * to $CONSOLE_SCREENSHOTS (or a temp dir). Skipped without /usr/bin/chromium.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { eventually } from '@skills/common/testing';
import { startStack, type Stack } from './helpers';
import { cspViolations, hasChromium, launchChromium } from './console-browser';
import { demoTab, expectAccessible, screenshotDir, shoot, WIDE } from './console-pages';

const describeBrowser = hasChromium ? describe : describe.skip;

const DATA = join(__dirname, '..', '..', '..', 'data');
interface SampleRelease {
  version: string;
  digest: string;
  yanked?: { reason: string };
}
interface SampleItem {
  slug: string;
  name: string;
  publisher: string | null;
  releases?: SampleRelease[];
}
const items = readFileSync(join(DATA, 'sample-catalog.ndjson'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as SampleItem);
const trust = JSON.parse(readFileSync(join(DATA, 'sample-trust.json'), 'utf8')) as {
  verifiedPublishers: string[];
  verdicts: Array<{ slug: string; version: string; scanner: string; verdict: string; summary: string }>;
};
const itemOf = (slug: string) => items.find((i) => i.slug === slug) as SampleItem;

/** SemVer precedence of plain and pre-release versions, highest first (docs/trust.md "Latest"). */
function newestFirst(a: string, b: string): number {
  const [coreA, preA] = a.split('-', 2);
  const [coreB, preB] = b.split('-', 2);
  const diff = coreB
    .split('.')
    .map(Number)
    .map((n, i) => n - Number(coreA.split('.')[i]))
    .find((d) => d !== 0);
  if (diff) return diff;
  if (preA === preB) return 0;
  return preA === undefined ? -1 : preB === undefined ? 1 : preB.localeCompare(preA);
}

/** Whether `target` has the keyboard focus (the suites compile without the DOM's types, hence the casts). */
const focused = (target: Locator) =>
  target.evaluate(
    (el) => (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el,
  );
const clipboardText = (page: Page) =>
  page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );

const WORDS: Record<string, string> = {
  clean: 'Clean',
  suspicious: 'Suspicious',
  malicious: 'Malicious',
  unscanned: 'Not scanned yet',
};

/** What the console must say of a sample release: the worst of its scanners' verdicts, `unscanned` without any. */
function verdictWord(slug: string, version: string): string {
  const said = trust.verdicts.filter((v) => v.slug === slug && v.version === version).map((v) => v.verdict);
  return WORDS[['malicious', 'suspicious', 'clean'].find((v) => said.includes(v)) ?? 'unscanned'];
}

// the sample's blocked item, a suspicious one, and one of a verified publisher with several releases and a yank
const malicious = trust.verdicts.find((v) => v.verdict === 'malicious') as { slug: string; summary: string };
const suspicious = itemOf(
  trust.verdicts.find((v) => v.verdict === 'suspicious' && v.slug !== malicious.slug)?.slug ?? '',
);
const versioned = items.find(
  (i) =>
    (i.releases ?? []).length >= 3 &&
    i.releases?.some((r) => r.yanked) &&
    trust.verifiedPublishers.includes(i.publisher ?? ''),
) as SampleItem;

describeBrowser('the console in headless Chromium: versions and trust', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let violations: string[];
  let shots: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
    shots = await screenshotDir();
    page = await demoTab(stack, browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.info.url });
    violations = cspViolations(page.context());
    // search learns verdicts through the outbox: wait until it knows the suspicious one
    await eventually(
      async () => {
        const found = await stack.client.call(
          'GET',
          `/api/v1/skills?trust=any&q=${encodeURIComponent(suspicious.name)}`,
          { token: stack.info.apiKey },
        );
        return found.body.data?.skills?.some(
          (s: { slug: string; verdict?: string }) => s.slug === suspicious.slug && s.verdict === 'suspicious',
        );
      },
      'the suspicious sample item in search',
      30_000,
    );
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
  }, 30_000);

  const results = () => page.getByRole('region', { name: 'Results' });
  const openItem = async (item: { slug: string; name: string }) => {
    await page.goto(`${stack.info.url}/console/catalog/${item.slug}`);
    await page.getByRole('heading', { name: item.name, level: 1 }).waitFor();
  };

  it("lists an item's releases newest first with a short digest copied whole, its verdict, a yank and the publisher", async () => {
    await openItem(versioned);
    await page.getByText(`${versioned.publisher} ✓ Verified (Verified publisher`).waitFor();
    const releases = page.getByRole('region', { name: 'Releases' });
    const expected = (versioned.releases ?? []).map((r) => r.version).sort(newestFirst);
    const rows = releases.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    await rows.first().waitFor();
    await expect(rows.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(
      expected.map((v) => `Version ${v}`),
    );

    const yanked = (versioned.releases ?? []).find((r) => r.yanked) as SampleRelease;
    const yankedRow = rows.filter({ has: page.getByRole('heading', { name: `Version ${yanked.version}` }) });
    await yankedRow.getByText(`Yanked: ${yanked.yanked?.reason}`).waitFor();
    // every release carries its verdict in words
    for (const version of expected)
      await releases.getByText(`Security verdict of ${version}: ${verdictWord(versioned.slug, version)}`).waitFor();

    const newest = (versioned.releases ?? []).find((r) => r.version === expected[0]) as SampleRelease;
    const row = rows.first();
    await row.getByText(`${newest.digest.slice(0, 19)}…${newest.digest.slice(-7)}`).waitFor();
    await row.getByRole('button', { name: `Copy the digest of ${newest.version}` }).click();
    await row
      .getByRole('status')
      .filter({ hasText: `Copied ${newest.digest}` })
      .waitFor();
    await expect(clipboardText(page)).resolves.toBe(newest.digest);
    await expectAccessible(page, 'item with releases');
  }, 60_000);

  it("opens a release: each scanner's summary, then the verdict history", async () => {
    const releases = page.getByRole('region', { name: 'Releases' });
    const version =
      (await releases.getByRole('heading', { level: 3 }).first().textContent())?.replace('Version ', '') ?? '';
    const toggle = releases.getByRole('button', { name: `Details of ${version}` });
    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    const scans = trust.verdicts.filter((v) => v.slug === versioned.slug && v.version === version);
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      const scanRow = releases.getByRole('row', { name: new RegExp(`^${scan.scanner}`) });
      await scanRow.getByText(scan.summary).waitFor();
    }
    const history = releases.getByRole('list', { name: 'Verdict history' });
    await history.getByRole('listitem').first().waitFor();
    await expect(history.getByRole('listitem').count()).resolves.toBe(scans.length);
    await expectAccessible(page, 'release opened');
    await shoot(page, shots, 'skill-releases');
  }, 60_000);

  it('explains a blocked item with its reason instead of offering to add it', async () => {
    const item = itemOf(malicious.slug);
    await openItem(item);
    const notice = page.getByRole('region', { name: 'This skill is blocked' });
    await notice.getByText(malicious.summary).waitFor();
    await page.getByText(`Security verdict of ${item.name}: Malicious`).waitFor();
    await expect(page.getByRole('button', { name: 'Add to collection' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Report' }).waitFor();
    await expectAccessible(page, 'blocked item');
    await shoot(page, shots, 'skill-blocked');
  }, 60_000);

  it("sends a report from the dialog, then shows the API's refusal with the wait once over the daily limit", async () => {
    const item = itemOf(suspicious.slug);
    await openItem(item);
    const opener = page.getByRole('button', { name: 'Report' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: `Report “${item.name}”` });
    // focus moves into the dialog, on its first field
    await expect(focused(dialog.getByLabel('Reason'))).resolves.toBe(true);
    await dialog.getByLabel('Reason').selectOption({ label: 'Steals credentials or secrets' });
    await dialog.getByLabel('What did you see? (optional)').fill('It asks for my cloud token in its set-up step.');
    await dialog.getByText('1,954 characters left').waitFor();
    await expectAccessible(page, 'report dialog');
    await shoot(page, shots, 'report');
    await dialog.getByRole('button', { name: 'Send the report' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Thank you: your report reached the catalog’s operators.' })
      .waitFor();
    await expect(dialog.isVisible()).resolves.toBe(false);
    await expect(focused(opener)).resolves.toBe(true);
    const open = await stack.client.call('GET', '/admin/v1/reports?status=open', { token: stack.admin });
    expect(open.body.data.reports).toEqual([
      expect.objectContaining({ reason: 'credential-theft', text: 'It asks for my cloud token in its set-up step.' }),
    ]);

    // the demo account's key files the rest of its day's reports (REPORTS_PER_ACCOUNT_PER_DAY, 20 by default)
    for (let filed = 1; filed < 20; filed++) {
      const sent = await stack.client.call('POST', `/api/v1/skills/${item.slug}/reports`, {
        token: stack.info.apiKey,
        json: { reason: 'spam', text: '' },
      });
      expect(sent.status).toBe(201);
    }
    await opener.click();
    await dialog.getByRole('button', { name: 'Send the report' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /Try again in \d+ (minutes?|hours?)\.$/ })
      .waitFor();
    await expect(dialog.isVisible()).resolves.toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 60_000);

  it('hides a suspicious item by default and shows it, marked, once asked; clean only shows clean ones', async () => {
    // a word of its name finds it beside items of other verdicts
    const word = suspicious.name.split(' ')[0];
    await page.goto(`${stack.info.url}/console/catalog?q=${encodeURIComponent(word)}`);
    await results()
      .getByRole('status')
      .filter({ hasText: /^\d+ results? for/ })
      .waitFor();
    const card = results().getByRole('article', { name: suspicious.name });
    await expect(page.getByRole('radio', { name: 'Hide suspicious items (default)' }).isChecked()).resolves.toBe(true);
    await expect(card.count()).resolves.toBe(0);

    await page.getByRole('radio', { name: 'Include suspicious items' }).check();
    await card.getByText(`Security verdict of ${suspicious.name}: Suspicious`).waitFor();
    expect(new URL(page.url()).searchParams.get('trust')).toBe('any');
    await expectAccessible(page, 'catalog with suspicious items');
    await shoot(page, shots, 'catalog-trust');

    await page.getByRole('radio', { name: 'Clean only' }).check();
    await card.waitFor({ state: 'detached' });
    await results()
      .getByRole('status')
      .filter({ hasText: /^[1-9]\d* results? for/ })
      .waitFor();
    for (const article of await results().getByRole('article').all())
      await article.getByText(/Security verdict of .*: Clean$/).waitFor();
    // the address holds the filter: a reload keeps it
    await page.reload();
    await expect(page.getByRole('radio', { name: 'Clean only' }).isChecked()).resolves.toBe(true);
  }, 60_000);

  it('shows only verified publishers once asked, as many as the facet counted', async () => {
    await page.goto(`${stack.info.url}/console/catalog`);
    const counted = page.getByText(/^[\d,]+ from verified publishers$/);
    const expected = Number(((await counted.textContent()) ?? '').replace(/\D/g, ''));
    expect(expected).toBeGreaterThan(0);
    await page.getByRole('checkbox', { name: 'Verified publishers only' }).check();
    expect(new URL(page.url()).searchParams.get('verifiedPublisher')).toBe('true');
    await results()
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${expected.toLocaleString('en')} results?$`) })
      .waitFor();
    const cards = await results().getByRole('article').all();
    expect(cards.length).toBeGreaterThan(0);
    for (const article of cards) await expect(article.textContent()).resolves.toContain('Verified (Verified publisher');
    await expectAccessible(page, 'catalog, verified publishers');
    await shoot(page, shots, 'catalog-verified');
  }, 60_000);

  it('pages the releases ten at a time, newest first, and takes the focus to the list on a new page', async () => {
    const item = items.find(
      (i) => ![versioned.slug, suspicious.slug, malicious.slug].includes(i.slug) && (i.releases ?? []).length > 0,
    ) as SampleItem;
    // eleven releases above the sample's own: the eleventh newest and the sample's go to page 2
    for (let patch = 0; patch <= 10; patch++) {
      const version = `90.0.${patch}`;
      const digest = `sha256:${createHash('sha256').update(`${item.slug}@${version}`).digest('hex')}`;
      const made = await stack.client.call('POST', `/admin/v1/skills/${item.slug}/versions`, {
        token: stack.admin,
        json: {
          version,
          digest,
          source: { repository: `https://github.com/example/${item.slug}`, ref: `v${version}` },
        },
      });
      expect(made.status).toBe(201);
    }
    await openItem(item);
    const releases = page.getByRole('region', { name: 'Releases' });
    const headings = releases.getByRole('heading', { level: 3 });
    await headings.first().waitFor();
    const newest = Array.from({ length: 10 }, (_, i) => `Version 90.0.${10 - i}`);
    await expect(headings.allTextContents()).resolves.toEqual(newest);
    await releases
      .getByRole('navigation', { name: 'Release pages' })
      .getByRole('button', { name: 'Next page' })
      .click();
    await releases.getByText('Page 2 of 2').waitFor();
    const older = ['90.0.0', ...(item.releases ?? []).map((r) => r.version).sort(newestFirst)].map(
      (v) => `Version ${v}`,
    );
    await expect(headings.allTextContents()).resolves.toEqual(older);
    await expect(focused(releases.getByRole('heading', { name: 'Releases', level: 2 }))).resolves.toBe(true);
  }, 60_000);

  it('speaks French to a browser that asks for it: the blocked notice, the verdicts, the releases and the filters', async () => {
    const made = await stack.client.call('POST', `/admin/v1/accounts/${stack.info.accountId}/links`, {
      token: stack.admin,
      json: { purpose: 'sign-in' },
    });
    const context = await browser.newContext({ viewport: WIDE, locale: 'fr-FR' });
    try {
      const fr = await context.newPage();
      fr.setDefaultTimeout(10_000);
      await fr.goto(made.body.data.link.url as string);
      await fr.getByRole('heading', { name: 'API keys' }).waitFor();
      const item = itemOf(malicious.slug);
      await fr.goto(`${stack.info.url}/console/catalog/${item.slug}`);
      await fr.getByRole('region', { name: 'Ce skill est bloqué' }).getByText(malicious.summary).waitFor();
      await fr.getByText(new RegExp(`Verdict de sécurité de ${item.name}\\s: Malveillant`)).waitFor();
      await fr
        .getByRole('region', { name: 'Versions publiées' })
        .getByRole('button', { name: /^Copier l’empreinte de / })
        .first()
        .waitFor();
      await fr.getByRole('button', { name: 'Signaler' }).click();
      await fr
        .getByRole('dialog', { name: new RegExp(`^Signaler «\\s${item.name}\\s»$`) })
        .getByLabel('Motif')
        .waitFor();
      await fr.keyboard.press('Escape');
      await fr.goto(`${stack.info.url}/console/catalog`);
      await fr.getByRole('radio', { name: 'Masquer les éléments suspects (par défaut)' }).waitFor();
      await fr.getByRole('checkbox', { name: 'Éditeurs vérifiés uniquement' }).waitFor();
      await expectAccessible(fr, 'catalog in French');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('met no Content-Security-Policy violation on any page', () => {
    expect(violations).toEqual([]);
  });
});
