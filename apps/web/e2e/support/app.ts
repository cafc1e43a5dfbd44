import { expect, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Demo customer seeded by the API in demo mode (apps/api/src/db/demo-users.ts). */
export const DEMO = { email: 'joannes@demo.alda.fo', password: 'Demo1234!', firstname: 'Jóannes' };

const shotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/**
 * Saves a phone screenshot under apps/web/e2e/screenshots/<name>.png: the whole page by default,
 * or with `{ fullPage: false }` only the first screen, as the user sees it (the fixed footer then
 * sits where it belongs instead of over the middle of a long page).
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
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
