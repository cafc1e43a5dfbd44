import { expect, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Demo customer seeded by the API in demo mode (apps/api/src/db/demo-users.ts). */
export const DEMO = { email: 'joannes@demo.alda.fo', password: 'Demo1234!', firstname: 'Jóannes' };

const shotDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'screenshots');

/** Saves a full-page phone screenshot under apps/web/e2e/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: true });
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
