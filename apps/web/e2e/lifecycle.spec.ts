import type { Page } from '@playwright/test';
import { commitmentEndsAt } from '../../../packages/contract/src/rules/lifecycle';
import { luhnCheckDigit } from '../../../packages/contract/src/rules/iccid';
import { loginByEmail, screenshot, watchToasts } from './support/app';
import { expect, test } from './support/fixtures';
import {
  newCustomer,
  registerByApi,
  registerCard,
  spaced,
  subscribeByApi,
} from './support/customer';

/*
 * The life of a subscription after sign-up (issue 12; SPEC §2 "no footer" routes, §4 "Family
 * capacity" and "Subscription lifecycle", §6; ADR 0056). One fresh family owner, set up through
 * the API the app uses, goes through it in the browser: adds a member and sees the price rise,
 * moves the member to a plan of its own, goes to a smaller plan and sees the rollover it would
 * lose (and undoes it), cancels everything in English, and after a simulated month end
 * (`POST /dev/month-end`, demo mode) has a talutíð number — and can delete the user.
 */

/** A SIM card number (ITU-T E.118, Luhn) for the member's card, unlike the owner's. */
function memberIccid(): string {
  const body = `89298010000000${String(Date.now()).slice(-4)}`;
  return `${body}${luhnCheckDigit(body)}`;
}

/** Waits until the order on screen has reached its last step ("the number works"). */
async function expectOrderDone(page: Page, name: RegExp) {
  const steps = page.getByRole('list', { name: /^(Stig|Steps)$/ });
  await expect(
    steps
      .getByRole('listitem')
      .filter({ hasText: name })
      .filter({ has: page.locator('time') }),
  ).not.toHaveCount(0, { timeout: 30_000 });
}

test.describe('changing and ending a subscription (SPEC §2, §4, §6, issue 12)', () => {
  test('a family owner adds a member and sees the price rise, moves the member to its own plan, sees the rollover a smaller plan deletes and undoes it, cancels in English, and after the month end has talutíð and deletes the user', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const owner = newCustomer('Rannvá', 'e2e-lifecycle');
    const api = await registerByApi(page.request, owner);
    await loginByEmail(page, owner.email, owner.password);
    const toasts = await watchToasts(page);
    await expect(page).toHaveURL(/\/valkomin$/);
    await registerCard(page, api);
    await subscribeByApi(api, 'family-unlimited', owner.wanted);

    // The family with one member: the next member costs memberPrices[1] (SPEC §4).
    await page.goto('/umsit-familju-hald');
    await expect(page.getByText(/Ein limur afturat kostar \+149 kr\./)).toBeVisible();
    await screenshot(page, 'lifecycle-01-family-one-member');

    // Add a member: name, a new number, a SIM card the owner already has (as in sign-up).
    await page.getByRole('link', { name: 'Legg ein lim afturat' }).click();
    await expect(page).toHaveURL(/\/stovna-familju-lim/);
    await page.getByLabel('Fornavn').fill('Dánjal');
    await page.getByLabel('Eftirnavn').fill('Hansen');
    await page.getByRole('button', { name: 'Halt fram' }).click();
    await page.getByRole('radio', { name: /Nýtt nummar/ }).click();
    await page.getByLabel('Ynskta nummarið').fill(owner.wantedToo);
    await page.getByRole('button', { name: 'Leita' }).click();
    await expect(page.getByText('Nummarið er tikið frá til tín')).toBeVisible();
    await page.getByRole('button', { name: 'Halt fram' }).click();
    await page.getByRole('radio', { name: /Eitt vanligt SIM-kort/ }).click();
    await page.getByRole('radio', { name: /Eg havi longu eitt SIM-kort/ }).click();
    await page.getByLabel('SIM-kortnummarið', { exact: true }).fill(memberIccid());
    await screenshot(page, 'lifecycle-02-add-member-sim');
    await page.getByRole('button', { name: 'Halt fram' }).click();
    await expect(page.getByText(/\+149 kr\. um mánaðin/)).toBeVisible();
    await page.getByLabel(/býr á sama bústaði/).check();
    await screenshot(page, 'lifecycle-03-add-member-confirm');
    await page.getByRole('button', { name: 'Legg limin afturat' }).click();
    await expect(page).toHaveURL(/\/menu\/bilegingar\/[\w-]+$/);
    await expectOrderDone(page, /Nummarið virkar/);

    // Two members now: the family costs more, and the next member less (SPEC §4).
    await page.goto('/umsit-familju-hald');
    await expect(page.getByText('Dánjal Hansen')).toBeVisible();
    await expect(page.getByText(/Ein limur afturat kostar \+129 kr\./)).toBeVisible();
    await expect(page.getByText('498,00 kr.').first()).toBeVisible();
    await screenshot(page, 'lifecycle-04-family-two-members');

    // Move the member to a plan of its own (SPEC §4 "A family member can be moved … to their
    // own plan"): transfer-subscription-to-new-account, at once.
    await page.getByText('Dánjal Hansen').click();
    await expect(page).toHaveURL(/\/familju-limur\/[\w-]+$/);
    await page.getByRole('link', { name: 'Flyt til egið hald' }).click();
    await expect(page).toHaveURL(/\/flyt-hald\/familju-lim\/[\w-]+$/);
    await expect(page.getByRole('radio', { name: /Flyt til eitt einstaklingahald/ })).toBeChecked();
    await page.getByRole('group', { name: 'Vel hald' }).getByText('20 GB', { exact: true }).click();
    await expect(page.getByRole('radio', { name: /^20 GB/ })).toBeChecked();
    await screenshot(page, 'lifecycle-05-move-member');
    await page.getByRole('button', { name: 'Flyt til einstaklingahald' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Flyt nummarið' }).click();
    await expect(page).toHaveURL(/\/menu\/bilegingar\/[\w-]+$/);
    await expectOrderDone(page, /(Nummarið virkar|Broytingin er gjørd|liðug)/);

    // A smaller plan: at month end, and the rollover it deletes is named (SPEC §4).
    await page.goto(`/umsit-hald/${owner.wantedToo}`);
    await page.getByRole('link', { name: 'Dagfør hald' }).click();
    await expect(page).toHaveURL(/\/dagfor-hald\/[\w-]+$/);
    await page.getByText('5 GB', { exact: true }).first().click();
    await expect(page.getByText('Tú missir 20 GB av goymdum data (rollover).')).toBeVisible();
    await expect(page.getByText(/Broytingin kemur í gildi \d\d\.\d\d\.\d{4}/)).toBeVisible();
    await screenshot(page, 'lifecycle-06-downgrade-rollover');
    await page.getByRole('button', { name: 'Halt fram' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Dagfør hald' }).click();
    await expect(page).toHaveURL(/\/menu\/bilegingar\/[\w-]+$/);

    // It waits for the month end and can be undone until then.
    await page.goto(`/umsit-hald/${owner.wantedToo}`);
    await expect(page.getByText(/Broytist til .+ \d\d\.\d\d\.\d{4}\./)).toBeVisible();
    await screenshot(page, 'lifecycle-07-downgrade-waiting');
    await page.getByRole('button', { name: 'Angra' }).click();
    await toasts.expectShown('Broytingin er tikin aftur.');

    // In English: cancel the member's own plan and the family (SPEC §4 "cancelled and expires at
    // month end"; the 6-month commitment decides which month end).
    await page.goto('/menu/mal');
    await page.getByRole('radio', { name: 'English' }).check();
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
    await page.goto(`/umsit-hald/${owner.wantedToo}`);
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const cancel = page.getByRole('dialog');
    await expect(cancel.getByText(/The subscription ends on \d\d\.\d\d\.\d{4}\./)).toBeVisible();
    await expect(cancel.getByText(/you still pay for \d+ months? \(/)).toBeVisible();
    await screenshot(page, 'lifecycle-en-08-cancel-confirm', { fullPage: false });
    await cancel.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(page.getByText(/Ends on \d\d\.\d\d\.\d{4} and becomes talutíð\./)).toBeVisible();

    await page.goto('/umsit-familju-hald');
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(
      page.getByText(/Ends on \d\d\.\d\d\.\d{4} and becomes talutíð\./).first(),
    ).toBeVisible();
    await screenshot(page, 'lifecycle-en-09-family-cancelled');

    // Deleting the user waits until the subscriptions have ended (SPEC §6).
    await page.goto('/min-brukari');
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByRole('dialog')).toContainText(/cancel your subscription/);
    await page.getByRole('dialog').getByRole('button').first().click();

    // The month end the commitment allows (simulated): every number becomes talutíð, kept.
    const at = new Date((commitmentEndsAt(new Date()) ?? new Date()).getTime() + 60_000);
    const monthEnd = await page.request.post(`/dev/month-end?at=${at.toISOString()}`);
    expect(monthEnd.status(), await monthEnd.text()).toBe(200);
    expect(((await monthEnd.json()) as { data: { applied: number } }).data.applied).toBe(2);
    await page.goto('/');
    await expect(page.getByText(spaced(owner.wanted)).first()).toBeVisible();
    await expect(page.getByText(/talutíð|Prepaid/i).first()).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'lifecycle-en-10-home-talutid', { fullPage: false });

    // Now the user can go; the talutíð numbers stay, without a user (ADR 0056).
    await page.goto('/min-brukari');
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
    await expect(page).toHaveURL(/\/rita-inn/);
    await screenshot(page, 'lifecycle-en-11-user-deleted', { fullPage: false });
    const gone = await page.request.post('/api/auth/email-login', {
      data: { email: owner.email, password: owner.password },
    });
    expect(gone.status()).toBe(401);
  });
});
