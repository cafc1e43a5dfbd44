import type { APIRequestContext } from '@playwright/test';
import { chooseLanguage, screenshot, signIn, watchToasts } from './support/app';
import { expect, test } from './support/fixtures';
import { outbox } from './support/outbox';
import { postUsage } from './support/usage';

/*
 * The roaming spend cap (issue 33 §2, ADR 0078). Guðrun (her own demo copy: an individual plan
 * with the EU package, so she owns the cap) is abroad: the charging system's usage feed books her
 * EU package and her data at home, then data beyond both at 0.10 kr a MB. At 80 % of the 373 kr
 * cap she is told; at 100 % data abroad stops and home says so with one tap; in English she raises
 * the cap (the confirmation names the risk) and goes on roaming.
 */

test.describe('roaming spend cap (issue 33 §2, ADR 0078)', () => {
  test('a roaming number passes 80 % and 100 % of its cap through the usage feed, is told, stops, raises the cap after a confirmation and goes on', async ({
    page,
    people,
    request,
  }) => {
    test.setTimeout(120_000);
    const { gudrun } = people;
    // This phone chose Faroese (the device's choice wins over Guðrun's English, SPEC §1).
    await page.goto('/rita-inn');
    await chooseLanguage(page, 'Føroyskt');
    await signIn(page, gudrun);
    const toasts = await watchToasts(page);

    // What is included is left of her EU package and of her data at home this month.
    const answer = await request.get('/api/subscriptions', {
      headers: await bearerOf(request, gudrun.email, gudrun.password),
    });
    const { currentMember } = (
      (await answer.json()) as {
        data: {
          currentAccount: { currentMember: { dataRemaining: { domestic: number; eu: number } } };
        };
      }
    ).data.currentAccount;
    const included = currentMember.dataRemaining.eu + currentMember.dataRemaining.domestic;

    // 2,984 MB beyond it: 298.40 kr, 80 % of 373 kr.
    await postUsage(request, { phoneNumber: gudrun.number, usedMb: included + 2_984, kind: 'eu' });
    await page.reload();
    const abroad = page.getByRole('region', { name: 'Uttanlands' });
    await expect(
      abroad.getByRole('link', { name: 'Kostnaður uttanlands: 298,40 kr. av 373 kr.' }),
    ).toBeVisible();
    await abroad.scrollIntoViewIfNeeded();
    await screenshot(page, 'roaming-cap-01-home-80-percent');

    await page.goto('/frabodanir');
    await expect(page.getByText('80 % av útreiðsluloftinum uttanlands')).toBeVisible();
    await expect(
      page.getByText(
        `${spaced(gudrun.number)}: data uttanlands hevur kostað 298,40 kr. av 373 kr. í hesum mánaði. Við 373 kr. steðgar data uttanlands.`,
      ),
    ).toBeVisible();

    // 800 MB more: 378.40 kr. The record that reaches the cap is charged; data abroad stops.
    await postUsage(request, { phoneNumber: gudrun.number, usedMb: 800, kind: 'eu' });
    await page.reload();
    await expect(page.getByRole('button', { name: /Data uttanlands er steðgað/ })).toBeVisible();
    await screenshot(page, 'roaming-cap-02-notifications');
    // The SMS went to the number itself, in the language saved on Guðrun: English.
    const sms = await outbox(page, `298${gudrun.number}`);
    expect(sms.map((m) => m.text)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^80% of your roaming spend cap\. /),
        expect.stringMatching(/^Data abroad stopped\. .*Raise the cap in the app to go on\./),
      ]),
    );

    await page.goto('/');
    await expect(
      abroad.getByText('Loftið 373 kr. er nátt, og data uttanlands er steðgað.'),
    ).toBeVisible();
    await expect(abroad.getByRole('link', { name: 'Hækka loftið' })).toBeVisible();
    await abroad.scrollIntoViewIfNeeded();
    await screenshot(page, 'roaming-cap-03-home-stopped');

    // In English from here: the menu's language screen.
    await page.getByRole('link', { name: 'Valmynd' }).click();
    await page.getByRole('link', { name: 'Mál' }).click();
    await page.getByRole('radio', { name: 'English' }).check();
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
    await page.getByRole('link', { name: 'Home' }).click();
    const abroadEn = page.getByRole('region', { name: 'Abroad' });
    await expect(
      abroadEn.getByText('The 373 kr. cap is reached and data abroad has stopped.'),
    ).toBeVisible();

    // One tap to go on: the cap screen offers the next cap with the confirmation open.
    await abroadEn.getByRole('link', { name: 'Raise the cap' }).click();
    const dialog = page
      .getByRole('alertdialog', { name: 'Raise the cap?' })
      .or(page.getByRole('dialog', { name: 'Raise the cap?' }));
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('With a cap of 750 kr., data abroad can cost up to 750 kr.');
    await screenshot(page, 'roaming-cap-04-confirm-raise');
    await dialog.getByRole('button', { name: 'Yes, raise the cap' }).click();
    await toasts.expectShown('The cap is saved.');
    await expect(page.getByText('378.40 kr. of 750 kr.')).toBeVisible();
    await expect(page.getByRole('radio', { name: '750 kr.' })).toBeChecked();
    await expect(page.getByText('Data abroad has stopped', { exact: true })).toHaveCount(0);
    await screenshot(page, 'roaming-cap-05-cap-screen-raised');

    // Roaming goes on and is charged again: 100 MB, 10 kr more.
    await postUsage(request, { phoneNumber: gudrun.number, usedMb: 100, kind: 'eu' });
    await page.goto('/');
    await expect(
      abroadEn.getByRole('link', { name: 'Charges abroad: 388.40 kr. of 750 kr.' }),
    ).toBeVisible();
    await expect(abroadEn.getByRole('link', { name: 'Raise the cap' })).toHaveCount(0);
    await abroadEn.scrollIntoViewIfNeeded();
    await screenshot(page, 'roaming-cap-06-home-going-on');

    // The month ends (simulated, demo mode): its charges are paid with the next monthly payment,
    // a line of their own under her number on the monthly price (ADR 0078 "Billing"). The
    // simulated round closes this calendar month early, so its charges show on its own price.
    const monthEnd = await request.post('/dev/month-end');
    expect(monthEnd.status(), await monthEnd.text()).toBe(200);
    await page.goto('/menu/manadargjald');
    const number = page.getByRole('region', { name: spaced(gudrun.number) });
    await expect(
      number.getByRole('listitem').filter({ hasText: /^Charges abroad in [A-Z][a-z]+ \d{4}/ }),
    ).toContainText('388.40 kr.');
    await screenshot(page, 'roaming-cap-07-monthly-price');
  });
});

/** 214455 → 21 44 55, as the notifications write a number. */
const spaced = (n: string) => n.replace(/(\d\d)(\d\d)(\d\d)/, '$1 $2 $3');

/** Signs in through the API (the journey's own customer) and answers the bearer header. */
async function bearerOf(request: APIRequestContext, email: string, password: string) {
  const login = await request.post('/api/auth/email-login', { data: { email, password } });
  expect(login.status()).toBe(200);
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  return { Authorization: `Bearer ${accessToken}` };
}
