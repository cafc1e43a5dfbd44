import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { DEMO_STAFF, DEMO_STAFF_PASSWORD, type DemoStaff } from '../../../api/src/seed/demo-staff';
import { expect } from './fixtures';

/*
 * The staff console (apps/console, ADR 0075) in the journeys: a desk at 1280 × 800, signed in
 * with the demo staff's password and a real TOTP code of the journey's clock (the same otplib
 * the server checks with). Each code is accepted once per account, so a journey signs in once —
 * and a second journey of the same file that signs the same demo member in takes the next
 * step's code (`stepsAhead: 1`; the server allows one step of drift), which the journey before
 * it, signed in with the current step's, cannot have used.
 */

export const DESK = { width: 1280, height: 800 } as const;

export function demoStaff(role: DemoStaff['role']): DemoStaff {
  const found = DEMO_STAFF.find((member) => member.role === role);
  if (!found) throw new Error(`no demo staff member with role ${role}`);
  return found;
}

/** The authenticator app's code now, or `stepsAhead` 30-second steps from now. */
export function totpNow(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

/** Signs in at /console/ (Faroese, the default) and waits for the role's first area. */
export async function signInToConsole(
  page: Page,
  staff: DemoStaff,
  { stepsAhead = 0 }: { stepsAhead?: number } = {},
): Promise<void> {
  await page.goto('/console/');
  await expect(page.getByRole('heading', { name: 'Rita inn' })).toBeVisible();
  await page.getByLabel('Teldupostur').fill(staff.email);
  await page.getByLabel('Loyniorð').fill(DEMO_STAFF_PASSWORD);
  await page.getByLabel('Kota').fill(await totpNow(staff.totpSecret, stepsAhead));
  await page.getByRole('button', { name: 'Rita inn', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Høvuðsvalmynd' })).toBeVisible();
}

/**
 * A platform authenticator in the page's browser (Chromium's WebAuthn domain over CDP): it makes
 * and answers passkeys with the user verified, without a prompt. WebAuthn refuses an IP address
 * as the relying party, so a page that uses it is on `http://localhost:<port>` (the API's
 * WEBAUTHN_RP_ID in playwright.config.ts), not the journeys' 127.0.0.1.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * Opens an area from the console's navigation, and waits until the router has moved there (its
 * link is the current page): until then the last area's screen, with a search field of the same
 * name, is still the one on screen, and typing would go into it.
 */
export async function openArea(desk: Page, name: string) {
  const link = desk.getByRole('navigation', { name: 'Høvuðsvalmynd' }).getByRole('link', { name });
  await link.click();
  await expect(link).toHaveAttribute('aria-current', 'page');
}
