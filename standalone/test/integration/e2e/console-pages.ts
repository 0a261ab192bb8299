/**
 * What the console's browser suites share: a signed-in tab for the demo
 * account (a one-time link the operator issues), screenshots at a narrow and
 * a wide window, and the accessibility check of the page as it is.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from './console-browser';
import type { Stack } from './helpers';

export const NARROW = { width: 390, height: 844 };
export const WIDE = { width: 1280, height: 900 };

/** Where screenshots go: $CONSOLE_SCREENSHOTS (docs/images when refreshing the docs), else a temp dir. */
export async function screenshotDir(): Promise<string> {
  const dir = process.env.CONSOLE_SCREENSHOTS ?? (await mkdtemp(join(tmpdir(), 'console-shots-')));
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Full-page shots of `page` as `console-<name>-wide.png` and `-narrow.png`; the window is wide again after. */
export async function shoot(page: Page, dir: string, name: string): Promise<void> {
  for (const [size, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: join(dir, `console-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDE);
}

/** No serious or critical axe-core violation on the page as it is now; `what` names it in a failure. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  expect({ what, violations: await seriousViolations(page) }).toEqual({ what, violations: [] });
}

/** A new tab signed in as the demo account, through a one-time sign-in link from the admin API. */
export async function demoTab(stack: Stack, browser: Browser): Promise<Page> {
  const made = await stack.client.call('POST', `/admin/v1/accounts/${stack.info.accountId}/links`, {
    token: stack.admin,
    json: { purpose: 'sign-in' },
  });
  if (made.status !== 201) throw new Error(`sign-in link: ${made.status}`);
  const page = await (await browser.newContext({ viewport: WIDE })).newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(made.body.data.link.url as string);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  return page;
}

/** A call of the public API from the page itself, with its session cookie and CSRF token, as the console makes it. */
export function callFromPage(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const session = (await (await fetch('/api/v1/auth/session')).json()) as { data: { csrfToken: string } };
      const res = await fetch(path, {
        method,
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.data.csrfToken },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    },
    { method, path, body },
  );
}
