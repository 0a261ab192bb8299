/**
 * The console's catalog and personal collections in headless Chromium
 * against the real stack: a search with a typo followed by its suggestion,
 * a facet filter, an item page with every field and safe links, adding a
 * result to a new personal collection, renaming it, a private skill, an
 * entry the catalog removed, deleting it after a confirmation, a form's
 * busy, refused and done states, and the catalog's empty, unavailable and
 * refused answers. Every
 * page is checked with axe-core and for CSP violations; screenshots go to
 * $CONSOLE_SCREENSHOTS (or a temp dir). Skipped without /usr/bin/chromium.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { startStack, type Stack } from './helpers';
import { cspViolations, hasChromium, launchChromium } from './console-browser';
import { callFromPage, demoTab, expectAccessible, screenshotDir, shoot } from './console-pages';

const describeBrowser = hasChromium ? describe : describe.skip;

describeBrowser('the console in headless Chromium: catalog and personal collections', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let violations: string[];
  let shots: string;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(), launchChromium()]);
    shots = await screenshotDir();
    page = await demoTab(stack, browser);
    violations = cspViolations(page);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.dispose();
  }, 30_000);

  const results = () => page.getByRole('region', { name: 'Results' });
  const filters = () => page.getByRole('complementary', { name: 'Filters' });

  it('searches as one types, offers the spelling that finds more as a link, and follows it', async () => {
    await page.getByRole('link', { name: 'Catalog' }).click();
    await page.getByRole('heading', { name: 'Catalog', level: 1 }).waitFor();
    await results()
      .getByRole('status')
      .filter({ hasText: /^\d+ results$/ })
      .waitFor();
    await expectAccessible(page, 'catalog');
    await page.getByLabel('Search skills and plugins').pressSequentially('talbes');
    const suggestion = results().getByRole('link', { name: 'tables' });
    await suggestion.waitFor();
    expect(page.url()).toContain('q=talbes');
    await results().getByText('1 result for “talbes”').waitFor();
    await shoot(page, shots, 'catalog-suggestion');
    await suggestion.click();
    await results().getByText('3 results for “tables”').waitFor();
    await expect(page.getByLabel('Search skills and plugins').inputValue()).resolves.toBe('tables');
  }, 60_000);

  it('filters by a facet (the counts beside each value) and a tag, sorted by popularity', async () => {
    await page.getByLabel('Search skills and plugins').fill('');
    await results()
      .getByRole('status')
      .filter({ hasText: /^\d+ results$/ })
      .waitFor();
    const security = page.getByRole('button', { name: /^Security \d+ results$/ });
    await expect(security.getAttribute('aria-pressed')).resolves.toBe('false');
    const count = Number(/(\d+)$/.exec((await security.textContent()) ?? '')?.[1]);
    expect(count).toBeGreaterThan(0);
    await security.click();
    await expect(page.getByRole('button', { name: /^Security/ }).getAttribute('aria-pressed')).resolves.toBe('true');
    // the result count becomes the facet's count
    await results()
      .getByRole('status')
      .filter({ hasText: new RegExp(`^${count} results$`) })
      .waitFor();
    expect(page.url()).toContain('category=security');
    for (const card of await results().getByRole('article').all())
      await expect(card.textContent()).resolves.toContain('Security');
    await page.getByLabel('Sort by').selectOption('popular');
    expect(page.url()).toContain('sort=popular');
    // a tag of a result narrows to the items holding it too
    await results().getByRole('article').first().getByRole('button', { name: 'Filter by tag tls' }).click();
    await page.getByRole('button', { name: 'Remove the tag filter tls' }).waitFor();
    await results()
      .getByRole('status')
      .filter({ hasText: /^[1-9] results?$/ })
      .waitFor();
    for (const card of await results().getByRole('article').all())
      await expect(card.textContent()).resolves.toContain('#tls');
    await expectAccessible(page, 'catalog filtered');
    await shoot(page, shots, 'catalog');
  }, 60_000);

  it('shows an item with every field, its links opening in a new tab without the opener or a Referer', async () => {
    const first = results().getByRole('article').first().getByRole('heading').getByRole('link');
    const name = (await first.textContent()) ?? '';
    await first.click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    for (const field of ['Publisher', 'Version', 'Licence', 'Downloads', 'Repository', 'Homepage', 'Tags'])
      await page.getByText(field, { exact: true }).waitFor();
    const repository = page.getByRole('link', { name: /^https:\/\/.*\(opens in a new tab\)$/ }).first();
    await expect(repository.getAttribute('target')).resolves.toBe('_blank');
    await expect(repository.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    await expectAccessible(page, 'item page');
    await shoot(page, shots, 'skill');
    await page.goBack();
    await results().getByRole('article').first().waitFor();
  }, 60_000);

  it('adds a result to a new personal collection, renames it, adds a private skill and shows a removed one as removed', async () => {
    const card = results().getByRole('article').first();
    const name = (await card.getByRole('heading').textContent()) ?? '';
    await card.getByRole('button', { name: /^Add to collection/ }).click();
    const dialog = page.getByRole('dialog', { name: `Add “${name}” to a collection` });
    await dialog.getByLabel('Collection', { exact: true }).selectOption({ label: 'A new personal collection…' });
    await dialog.getByLabel('Name of the new collection').fill('Reading list');
    await expectAccessible(page, 'add to collection dialog');
    await dialog.getByRole('button', { name: 'Add to collection' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Added “${name}” to “Reading list”.` })
      .waitFor();
    await page.getByRole('link', { name: 'Open the collection' }).click();

    await page.getByRole('heading', { name: 'Reading list', level: 1 }).waitFor();
    await page.getByRole('listitem').filter({ hasText: name }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Weekend reading');
    await page.getByLabel('Description').fill('To try on Saturday');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Weekend reading', level: 1 }).waitFor();

    await page.getByLabel('New private skill name').fill('Our release checklist');
    await page.getByRole('button', { name: 'Create and add' }).click();
    await page
      .getByRole('listitem')
      .filter({ hasText: 'Our release checklist' })
      .getByText('private', { exact: true })
      .waitFor();

    // the operator takes the skill out of the catalog: the entry stays, marked removed
    const slug =
      (await page.getByRole('listitem').filter({ hasText: name }).getByRole('link').getAttribute('href'))
        ?.split('/')
        .pop() ?? '';
    expect((await stack.client.call('DELETE', `/admin/v1/skills/${slug}`, { token: stack.admin })).status).toBe(200);
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: name }).getByText('removed from the catalog').waitFor();
    await expectAccessible(page, 'collection page');
    await shoot(page, shots, 'collection');
  }, 60_000);

  it('deletes the collection after a confirmation, and lists it no more', async () => {
    await page.getByRole('button', { name: 'Delete collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Weekend reading”?' });
    await expectAccessible(page, 'delete dialog');
    await dialog.getByRole('button', { name: 'Delete collection' }).click();
    await page.getByRole('heading', { name: 'Your collections' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Collection deleted.' }).waitFor();
    await page.getByRole('link', { name: 'My favourites' }).waitFor();
    await expect(page.getByRole('link', { name: 'Weekend reading' }).count()).resolves.toBe(0);
    await expectAccessible(page, 'collections page');
    await shoot(page, shots, 'collections');
  }, 60_000);

  it("says a form is busy, sends a second submit no more, shows the API's refusal, then what was done", async () => {
    await page.goto(`${stack.info.url}/console/catalog?q=tables`);
    const card = results().getByRole('article').first();
    const name = (await card.getByRole('heading').textContent()) ?? '';
    await card.getByRole('button', { name: /^Add to collection/ }).click();
    const dialog = page.getByRole('dialog', { name: `Add “${name}” to a collection` });
    const submit = dialog.getByRole('button', { name: /^Add(ing…| to collection)$/ });
    await dialog.getByLabel('Collection', { exact: true }).selectOption({ label: 'A new personal collection…' });
    // a name of blanks only passes the browser's check and not the API's: its own words, and the button usable again
    await dialog.getByLabel('Name of the new collection').fill('   ');
    await submit.click();
    await dialog.getByRole('alert').filter({ hasText: /name/i }).waitFor();
    await expect(submit.textContent()).resolves.toBe('Add to collection');
    await expect(submit.isEnabled()).resolves.toBe(true);
    await expectAccessible(page, 'a refused form');
    await shoot(page, shots, 'form-refused');

    // the creation held on its way: the button says so, and a second submit meanwhile sends nothing
    const held: Route[] = [];
    const creations = (url: URL) => url.pathname === '/api/v1/me/collections';
    await page.route(creations, (route) => (route.request().method() === 'POST' ? held.push(route) : route.continue()));
    await dialog.getByLabel('Name of the new collection').fill('Held once');
    await submit.click();
    await expect(dialog.getByRole('button', { name: 'Adding…' }).isDisabled()).resolves.toBe(true);
    await expect(dialog.getByRole('alert').textContent()).resolves.toBe('');
    // as fast as no person clicks: the form submitted again while its button is disabled
    await dialog
      .getByLabel('Name of the new collection')
      .evaluate((input) => (input as unknown as { form: { requestSubmit(): void } }).form.requestSubmit());
    await expectAccessible(page, 'a busy form');
    await shoot(page, shots, 'form-busy');
    for (const route of held) await route.continue();
    await page.unroute(creations);
    await page
      .getByRole('status')
      .filter({ hasText: `Added “${name}” to “Held once”.` })
      .waitFor();
    await shoot(page, shots, 'form-done');
    const mine = (await callFromPage(page, 'GET', '/api/v1/me/collections?limit=50')).body as {
      data: { collections: Array<{ name: string }> };
    };
    expect(mine.data.collections.filter((c) => c.name === 'Held once')).toHaveLength(1);
    expect(held).toHaveLength(1);
  }, 60_000);

  it('says plainly when nothing matches, offers to try again when the API is unavailable, and not when it refused', async () => {
    await page.goto(`${stack.info.url}/console/catalog?q=zzqxwvk`);
    await results().getByText('0 results for “zzqxwvk”').waitFor();
    await results().getByText('Nothing matches.').waitFor();
    // the answer's facets are known and empty
    await expect(filters().getByText('Nothing to filter by.').count()).resolves.toBe(2);
    await expectAccessible(page, 'catalog, nothing matches');
    await shoot(page, shots, 'catalog-empty');
    // an overloaded API (a real one sheds load this way; the route stands in for it): trying again may help
    const searches = '**/api/v1/skills?**';
    await page.route(searches, (route) =>
      route.fulfill({
        status: 503,
        headers: { 'retry-after': '1' },
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Service overloaded; retry shortly' }),
      }),
    );
    await page.goto(`${stack.info.url}/console/catalog?q=tables`);
    const unavailable = results().getByRole('alert');
    await unavailable.filter({ hasText: 'Service overloaded; retry shortly' }).waitFor();
    await page.unroute(searches);
    await unavailable.getByRole('button', { name: 'Try again' }).click();
    await results().getByText('3 results for “tables”').waitFor();
    // 20 a page: page 600 lies past the 10,000 results the API serves, and it says so (400): the same request would fail again
    await page.goto(`${stack.info.url}/console/catalog?page=600&category=security`);
    const refusal = results().getByRole('alert');
    await refusal.filter({ hasText: /"page" × "limit" must be at most 10,?000/ }).waitFor();
    await expect(refusal.getByRole('button').count()).resolves.toBe(0);
    await expect(results().getByRole('status').count()).resolves.toBe(0);
    // no answer told the facets: nothing said of them, but the active filter can still be removed
    await expect(filters().getByText('Nothing to filter by.').count()).resolves.toBe(0);
    const active = filters().getByRole('button', { name: 'security', pressed: true });
    await expect(active.textContent()).resolves.toBe('Security');
    await expect(active.getByLabel(/results$/).count()).resolves.toBe(0);
    await expectAccessible(page, 'catalog, refused');
    await shoot(page, shots, 'catalog-refused');
  }, 60_000);

  it("shows its own words for a code in the address, and a crafted link's words nowhere", async () => {
    const crafted = 'Your account is suspended: call +1 555 0100';
    await page.goto(`${stack.info.url}/console/collections?done=${encodeURIComponent(crafted)}`);
    await page.getByRole('heading', { name: 'Your collections' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Done.' }).waitFor();
    await expect(page.getByText(crafted).count()).resolves.toBe(0);

    const signedOut = await (await browser.newContext()).newPage();
    try {
      await signedOut.goto(`${stack.info.url}/console/sign-in#error=${encodeURIComponent(crafted)}`);
      await signedOut.getByRole('alert').filter({ hasText: 'Sign-in did not succeed; try again.' }).waitFor();
      await expect(signedOut.getByText(crafted).count()).resolves.toBe(0);
      // a code single sign-on sends back: the console's text for it
      await signedOut.goto(`${stack.info.url}/console/sign-in#error=oidc.linkedElsewhere`);
      await signedOut.reload();
      await signedOut
        .getByRole('alert')
        .filter({ hasText: 'This single sign-on identity is already linked to another account.' })
        .waitFor();
    } finally {
      await signedOut.context().close();
    }
  }, 60_000);

  it('met no Content-Security-Policy violation on any page', () => {
    expect(violations).toEqual([]);
  });
});
