import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_PASSWORD, demoUser } from '../../../api/src/seed/demo-users';

/**
 * A demo customer as the journeys sign in: e-mail, own number and the shared password, taken from
 * the API's seed (apps/api/src/seed/demo-users.ts) so that no journey copies them.
 */
export function demo(firstname: string) {
  const user = demoUser(firstname);
  return { email: user.email, number: user.phoneNumber, firstname, password: DEMO_PASSWORD };
}

/** Jóannes, the family plan owner: the journeys' default customer. */
export const DEMO = demo('Jóannes');

const here = path.dirname(fileURLToPath(import.meta.url));
const shotDir = path.join(here, '..', 'screenshots');

/** The sections of the texts (fo.json's top-level keys). */
const sections = Object.keys(
  JSON.parse(readFileSync(path.join(here, '../../src/locales/fo.json'), 'utf8')) as object,
);
/** A text's key shown instead of the text (`menu.title`): a section, a dot, a name. */
const TEXT_KEY = new RegExp(`\\b(?:${sections.join('|')})\\.[A-Za-z]\\w*`);

/**
 * Saves a phone screenshot under apps/web/e2e/screenshots/<name>.png: the whole page by default,
 * or with `{ fullPage: false }` only the first screen, as the user sees it (the fixed footer then
 * sits where it belongs instead of over the middle of a long page). Every screen photographed
 * also shows no translation key in place of a text, on screen or in an accessible name (issue 13:
 * the later screens' texts load after the first screen).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const shown = await page.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(document.querySelectorAll('[aria-label]'), (el) =>
        el.getAttribute('aria-label'),
      ),
    ].join('\n'),
  );
  expect(shown.match(TEXT_KEY)?.[0], `a text key on ${name}`).toBeUndefined();
  await page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage });
}

/** Page object of the e-mail login journey (SPEC §2 login.email). */
export async function loginByEmail(page: Page, email = DEMO.email, password = DEMO.password) {
  await page.goto('/rita-inn/vid-telduposti');
  await page.getByLabel('Teldupostur').fill(email);
  await page.getByLabel('Loyniorð', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Rita inn' }).click();
}

export async function signIn(page: Page) {
  await loginByEmail(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(DEMO.firstname).first()).toBeVisible();
}
