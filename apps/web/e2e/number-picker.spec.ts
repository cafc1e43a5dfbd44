import type { APIRequestContext, Page } from '@playwright/test';
import { loginByEmail, screenshot } from './support/app';
import { newCustomer, type Customer } from './support/customer';
import { expect, test } from './support/fixtures';

/*
 * Choosing a new number (issue 33 §1, docs/decisions/0077-number-picker.md): the number step opens
 * with free numbers to tap, a fresh set on "Vís fleiri"; a pattern search ("ends with 55") answers
 * with free numbers that match and the easy ones with their one-off price, shown before choosing,
 * on the reservation and on the summary with the first payment. Two fresh customers, one in
 * Faroese and one in English (the language of their user, issue 33 §3).
 */

/** Registers `customer` through the API in `locale` (which becomes their user's language). */
async function register(request: APIRequestContext, customer: Customer, locale: 'fo' | 'en') {
  const res = await request.post('/api/auth/register', {
    headers: { 'accept-language': locale },
    data: { ...customer, passwordRepeat: customer.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs in and opens the individual sign-up at its number step. */
async function toNumberStep(
  page: Page,
  customer: Customer,
  texts: { plans: string; next: string; heading: string },
) {
  await loginByEmail(page, customer.email, customer.password);
  await expect(page).toHaveURL(/\/(valkomin)?$/);
  await page.goto('/nytt-hald/individual_plan');
  await page.getByRole('radiogroup', { name: texts.plans }).getByRole('radio').first().click();
  await page.getByRole('button', { name: texts.next }).click();
  await expect(page.getByRole('heading', { name: texts.heading })).toBeVisible();
}

test.describe('choosing a new number: the number picker (issue 33 §1)', () => {
  test('a new customer picks a suggested number (Faroese); another searches "ends with 55" and takes an easy number, its price seen before choosing and on the summary (English)', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(90_000);

    // Faroese: free numbers at once, a fresh set on "Vís fleiri", a tap reserves one.
    const sólja = newCustomer('Sólja', 'e2e-picker');
    await register(request, sólja, 'fo');
    await toNumberStep(page, sólja, {
      plans: 'Vel hald',
      next: 'Halt fram',
      heading: 'Hvat nummar vilt tú hava?',
    });
    const offered = page.getByRole('group', { name: 'Leys nummur' });
    await expect(offered.getByRole('button')).toHaveCount(6);
    await expect(page.getByText('Nummur, ið eru løtt at minnast')).toBeVisible();
    await screenshot(page, 'picker-01-free-numbers');
    const firstSet = await offered.getByRole('button').allTextContents();
    await page.getByRole('button', { name: 'Vís fleiri' }).click();
    await expect
      .poll(async () => await offered.getByRole('button').allTextContents())
      .not.toEqual(firstSet);
    const chosen = (await offered.getByRole('button').first().textContent()) ?? '';
    expect(chosen).toMatch(/^\d\d \d\d \d\d$/);
    await offered.getByRole('button').first().click();
    await expect(page.getByText('Nummarið er tikið frá til tín')).toBeVisible();
    await expect(page.getByText(chosen, { exact: true })).toBeVisible();
    await expect(page.getByText(/Tú hevur (29|30):\d\d eftir/)).toBeVisible();
    await screenshot(page, 'picker-02-reserved');
    await page.getByRole('button', { name: 'Halt fram' }).click();
    await expect(
      page.getByRole('heading', { name: 'Hvussu vilt tú hava SIM-kortið?' }),
    ).toBeVisible();

    // English, on another phone: ends with 55, then an easy number with its one-off price.
    const ann = newCustomer('Ann', 'e2e-picker');
    await register(request, ann, 'en');
    const other = await browser.newContext({ viewport: page.viewportSize() });
    const phone = await other.newPage();
    await toNumberStep(phone, ann, {
      plans: 'Choose a plan',
      next: 'Continue',
      heading: 'Which number do you want?',
    });
    await phone.getByRole('radio', { name: 'Ends with' }).click();
    await phone.getByLabel('The number you want').fill('55');
    await phone.getByRole('button', { name: 'Search' }).click();
    await expect(phone.getByRole('heading', { name: 'Free numbers ending in 55' })).toBeVisible();
    const matching = phone.getByRole('group', { name: 'Free numbers ending in 55' });
    await expect(matching.getByRole('button').first()).toBeVisible();
    for (const text of await matching.getByRole('button').allTextContents())
      expect(text).toMatch(/^\d\d \d\d 55/);
    const easy = phone
      .getByRole('group', { name: 'Numbers that are easy to remember' })
      .getByRole('button')
      .first();
    // The price is on the number before it is chosen.
    await expect(easy).toHaveAccessibleName(/^\d\d \d\d 55\s*\S.*\+[\d,.]+ kr\. once$/);
    await screenshot(phone, 'picker-03-ends-with-55');
    const name = (await easy.textContent()) ?? '';
    const [, number = '', price = ''] = /^(\d\d \d\d 55).*\+([\d,.]+ kr\.) once$/.exec(name) ?? [];
    await easy.click();
    await expect(phone.getByText('The number is reserved for you')).toBeVisible();
    await expect(phone.getByText(number, { exact: true })).toBeVisible();
    await expect(
      phone.getByText(`The one-off price, ${price}, is added to the first payment.`),
    ).toBeVisible();
    await screenshot(phone, 'picker-04-easy-number-reserved');
    await phone.getByRole('button', { name: 'Continue' }).click();
    await phone.getByRole('radio', { name: /eSIM/ }).first().click();
    await phone.getByRole('button', { name: 'Continue' }).click();
    await expect(phone.getByRole('heading', { name: 'Is everything right?' })).toBeVisible();
    await expect(phone.getByText('One-off price of the number')).toBeVisible();
    await expect(phone.getByText(`${price}, with the first payment`)).toBeVisible();
    await expect(
      phone.getByText(`The number's one-off price, ${price}, is added to the first payment.`),
    ).toBeVisible();
    await screenshot(phone, 'picker-05-summary-one-off');
    await other.close();
  });
});
