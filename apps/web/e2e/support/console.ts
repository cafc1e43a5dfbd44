import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD, type DemoStaff } from '../../../api/src/seed/demo-staff';
import { expect } from './fixtures';

/*
 * The staff console (apps/console, ADR 0075) in the journeys: a desk at 1280 × 800, signed in
 * with the demo staff's password and a real TOTP code of the journey's clock (the same otplib
 * the server checks with). Each code is accepted once per account, so a journey signs in once.
 */

export const DESK = { width: 1280, height: 800 } as const;

export function demoStaff(role: DemoStaff['role']): DemoStaff {
  const found = DEMO_STAFF.find((member) => member.role === role);
  if (!found) throw new Error(`no demo staff member with role ${role}`);
  return found;
}

/** The authenticator app's code now. */
export function totpNow(secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) });
}

/** Signs in at /console/ (Faroese, the default) and waits for the role's first area. */
export async function signInToConsole(page: Page, staff: DemoStaff): Promise<void> {
  await page.goto('/console/');
  await expect(page.getByRole('heading', { name: 'Rita inn' })).toBeVisible();
  await page.getByLabel('Teldupostur').fill(staff.email);
  await page.getByLabel('Loyniorð').fill(DEMO_STAFF_PASSWORD);
  await page.getByLabel('Kota').fill(await totpNow(staff.totpSecret));
  await page.getByRole('button', { name: 'Rita inn' }).click();
  await expect(page.getByRole('navigation', { name: 'Høvuðsvalmynd' })).toBeVisible();
}
