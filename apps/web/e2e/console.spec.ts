import type { Page } from '@playwright/test';
import { loginByEmail, screenshot } from './support/app';
import { DESK, demoStaff, openArea, signInToConsole } from './support/console';
import {
  GOOD_ICCID,
  newCustomer,
  orderRejectedPort,
  registerByApi,
  registerCard,
} from './support/customer';
import { expect, test } from './support/fixtures';

/*
 * The operator's desk (issue 31, ADR 0075): a staff member signs in at /console/ with a password
 * and a TOTP code, finds the customer whose port the other provider rejected, sees why, asks the
 * port again, and watches the order move — live, without reloading — once the customer has
 * corrected the SIM card number in the app; refunds part of a payment; publishes a status message
 * the customer's app receives; and finds every one of those actions in the audit log. Every
 * console screen is checked with axe (WCAG 2.2 AA) at a desk's 1280 × 800.
 */

/** Waits until the order's step timeline in the console shows `step` (it refreshes itself). */
async function expectConsoleStep(desk: Page, step: string, count = 1) {
  // The steps that happened carry their time; those to come are listed without one.
  const timeline = desk.getByRole('region', { name: 'Stig' });
  await expect(
    timeline
      .getByRole('listitem')
      .filter({ has: desk.locator('time') })
      .filter({ has: desk.getByText(step, { exact: true }) }),
  ).toHaveCount(count, { timeout: 30_000 });
}

test.describe('the staff console (issue 31)', () => {
  test('a staff member signs in with TOTP, handles a rejected port the customer corrects, refunds a payment, resends a bill, publishes a status message, and finds it all in the audit log', async ({
    page,
    browser,
    people,
  }) => {
    test.setTimeout(180_000);

    // The customer: registered, a card on file, and a number to keep from another provider
    // whose SIM card number they typed wrong.
    const customer = newCustomer('Marjun', 'e2e-console');
    const api = await registerByApi(page.request, customer);
    await registerCard(page, api);
    const orderId = await orderRejectedPort(api, customer);

    // The desk: a provisioning-and-support admin at 1280 × 800.
    const deskContext = await browser.newContext({ viewport: DESK, locale: 'fo-FO' });
    const desk = await deskContext.newPage();
    await desk.goto('/console/');
    await screenshot(desk, 'console-01-sign-in');
    await signInToConsole(desk, demoStaff('admin'));

    // Find the customer by e-mail; opening them asks why (the reason goes to the audit log).
    await openArea(desk, 'Kundar');
    await desk.getByLabel('Leita').fill(customer.email);
    await desk
      .getByRole('button', { name: `Opna ${customer.firstname} ${customer.lastname}` })
      .click();
    const reason = desk.getByRole('dialog');
    await reason.getByRole('button', { name: 'Opna kundan' }).click();
    await expect(reason.getByText('Skriva eina orsøk, í minsta lagi 3 tekin.')).toBeVisible();
    await reason.getByLabel('Orsøk').fill('Samtala 4711: flytingin riggar ikki');
    await screenshot(desk, 'console-02-open-reason');
    await reason.getByRole('button', { name: 'Opna kundan' }).click();
    await expect(
      desk.getByRole('heading', { name: `${customer.firstname} ${customer.lastname}` }),
    ).toBeVisible();
    await expect(desk.getByText(/Flytingin av .* varð avvíst/)).toBeVisible();
    await screenshot(desk, 'console-03-customer');

    // The order: the provider's reason; ask the port again (with the same wrong number, it is
    // rejected a second time — the customer must correct it).
    await desk.goto(`/console/orders/${orderId}`);
    await expect(desk.getByText('Orsøk frá veitaranum')).toBeVisible();
    await expectConsoleStep(desk, 'Flytingin avvíst');
    await screenshot(desk, 'console-04-order-rejected');
    await desk.getByRole('button', { name: 'Royn aftur' }).first().click();
    const retry = desk.getByRole('dialog');
    await retry.getByLabel(/Orsøk/).fill('Samtala 4711: kundin biður um nýggja roynd');
    await retry.getByRole('button', { name: 'Royn aftur' }).click();
    await expect(desk.getByText('Bíleggingin verður roynd aftur beinanvegin.')).toBeVisible();
    await expectConsoleStep(desk, 'Flytingin avvíst', 2);

    // The customer corrects the SIM card number in the app, on their phone.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'fo-FO',
    });
    const app = await phone.newPage();
    await loginByEmail(app, customer.email, customer.password);
    await expect(app).toHaveURL(/\/$/);
    await app.goto(`/menu/bilegingar/${orderId}`);
    await app.getByLabel('SIM-kortnummar hjá núverandi veitara').fill(GOOD_ICCID);
    await app.getByRole('button', { name: 'Send rætting' }).click();

    // The desk sees the correction and the order moving, without a reload.
    await expect(desk.getByText('Rætting frá kundanum')).toBeVisible({ timeout: 15_000 });
    await expectConsoleStep(desk, 'Nummarið flutt');
    await expectConsoleStep(desk, 'Nummarið virkar');
    await screenshot(desk, 'console-05-order-moved');
    // And so does the customer's app.
    await expect(app.getByText('Nummarið virkar').first()).toBeVisible({ timeout: 15_000 });

    // The orders queue, live too.
    await openArea(desk, 'Bíleggingar');
    await expect(desk.getByRole('heading', { name: 'Bíleggingar', level: 1 })).toBeVisible();
    await screenshot(desk, 'console-06-orders');

    // The customer buys extra data with the card on file; support refunds part of it.
    const offers = (await api.get('/api/packages')) as { id: string; kind: string }[];
    const extra = offers.find((offer) => offer.kind === 'data');
    if (!extra) throw new Error('no data package for sale');
    const bought = (await api.send('POST', '/api/packages', {
      packageId: extra.id,
      phoneNumber: customer.ported,
      payWith: 'agreement',
    })) as { order: { id: string } };
    await openArea(desk, 'Gjaldingar');
    await desk.getByLabel('Leita').fill(bought.order.id);
    await desk.getByRole('button', { name: 'Leita' }).click();
    const paid = desk.getByRole('row').filter({ has: desk.getByText('Goldið', { exact: true }) });
    await expect(paid).toHaveCount(1, { timeout: 15_000 });
    await paid.getByRole('link').first().click();
    await screenshot(desk, 'console-07-payment');
    await desk.getByRole('button', { name: 'Endurgjalda' }).click();
    const refund = desk.getByRole('dialog');
    await refund.getByLabel('Upphædd í krónum').fill('10');
    await refund.getByLabel('Orsøk').fill('Samtala 4711: bót fyri seinkaða flyting');
    await refund.getByRole('button', { name: 'Víðari' }).click();
    await refund.getByRole('button', { name: /^Endurgjalda 10,00 kr\./ }).click();
    await expect(refund.getByText('Endurgjaldið er skrásett')).toBeVisible();
    await refund.getByRole('button', { name: 'Lat aftur' }).click();
    await expect(
      desk.getByRole('table', { name: 'Endurgjøld av hesum gjaldinum' }).getByText('Bíðar'),
    ).toBeVisible();

    // A status message, with the preview as the app shows it; the app's status check gets it.
    await openArea(desk, 'Støðuboð');
    const title = `Viðlíkahald ${Date.now() % 100000}`;
    await desk.getByLabel('Heiti á føroyskum').fill(title);
    await desk.getByLabel('Heiti á enskum').fill('Maintenance');
    await desk.getByLabel('Tekstur á føroyskum').fill('Skipanin er niðri sunnudag kl. 02–04.');
    await desk.getByLabel('Tekstur á enskum').fill('The system is down on Sunday 02–04.');
    await screenshot(desk, 'console-08-status-compose');
    await desk.getByRole('button', { name: 'Send út nú' }).click();
    await expect(
      desk.getByText('Boðini eru send út. Appin vísir tey, tá ið hon verður opnað.'),
    ).toBeVisible();
    for (const [language, expected] of [
      ['fo', title],
      ['en', 'Maintenance'],
    ] as const) {
      const status = await app.request.post('/api/status', {
        headers: { 'accept-language': language },
        data: {
          currentVersion: '3.0.0',
          deviceMeta: { platform: 'android', osVersion: '15', model: 'Pixel 7', isVirtual: false },
        },
      });
      const messages = ((await status.json()) as { data: { messages: { title: string }[] } }).data
        .messages;
      expect(messages.map((m) => m.title)).toContain(expected);
    }

    // The other screens, each checked with axe.
    await openArea(desk, 'Innihald');
    await expect(desk.getByRole('heading', { name: 'Innihald', level: 1 })).toBeVisible();
    await screenshot(desk, 'console-09-content');
    await openArea(desk, 'Nummur');
    await expect(desk.getByRole('heading', { name: 'Nummur', level: 1 })).toBeVisible();
    await screenshot(desk, 'console-10-numbers');
    await openArea(desk, 'Starvsfólk');
    await expect(desk.getByRole('heading', { name: 'Starvsfólk', level: 1 })).toBeVisible();
    await screenshot(desk, 'console-11-staff');

    // A bank as a CAMARA SIM Swap partner (issue 32, ADR 0076): made here, its secret shown
    // once; with those credentials the bank gets a token and asks about Rói's number, whose SIM
    // changed four days ago (the demo data) — and nothing else is open to it.
    await openArea(desk, 'Samstarvspartar');
    await expect(desk.getByRole('heading', { name: 'Samstarvspartar', level: 1 })).toBeVisible();
    await desk.getByRole('button', { name: 'Legg samstarvspart afturat' }).first().click();
    const adding = desk.getByRole('dialog');
    await adding.getByLabel('Navn á samstarvsparti').fill('Norðoya Banki');
    await adding.getByRole('button', { name: 'Legg afturat' }).click();
    const secret = desk.getByRole('dialog', { name: 'Norðoya Banki: atgongdarupplýsingar' });
    await expect(secret.getByText(/Tú fært ikki at síggja tað aftur/)).toBeVisible();
    const [clientId, clientSecret] = await secret.locator('dd code').allTextContents();
    await screenshot(desk, 'console-11b-partner-secret');
    await secret.getByRole('button', { name: 'Eg havi goymt tað' }).click();
    await expect(desk.getByText('Norðoya Banki', { exact: true })).toBeVisible();
    const token = await desk.request.post('/oauth/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: clientId ?? '',
        client_secret: clientSecret ?? '',
      },
    });
    expect(token.status()).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const bank = { authorization: `Bearer ${accessToken}` };
    const check = async (maxAge: number) => {
      const answer = await desk.request.post('/camara/sim-swap/v2/check', {
        headers: bank,
        data: { phoneNumber: '+298779031', maxAge },
      });
      expect(answer.status()).toBe(200);
      return ((await answer.json()) as { swapped: boolean }).swapped;
    };
    expect(await check(24 * 7)).toBe(true);
    expect(await check(24)).toBe(false);
    // The bank's token opens the partner API only, not a customer's or the staff's.
    expect((await desk.request.get('/api/subscriptions', { headers: bank })).status()).toBe(401);
    expect((await desk.request.get('/api/staff/partners', { headers: bank })).status()).toBe(401);

    // A family owner's monthly bills (ADR 0098): opened with a reason, one bill read, and
    // resent to him with a reason the audit log keeps.
    const owner = people.joannes;
    await openArea(desk, 'Kundar');
    await desk.getByLabel('Leita').fill(owner.email);
    await desk.getByRole('button', { name: `Opna ${owner.firstname} ${owner.lastname}` }).click();
    const why = desk.getByRole('dialog');
    await why.getByLabel('Orsøk').fill('Samtala 4712: spyr um rokningina');
    await why.getByRole('button', { name: 'Opna kundan' }).click();
    await desk.getByRole('tab', { name: 'Rokningar' }).click();
    const bills = desk.getByRole('table').filter({ hasText: 'R-' });
    await expect(bills.getByText('Goldin').first()).toBeVisible();
    await bills
      .getByRole('button', { name: /^Vís rokning R-\d{6}$/ })
      .first()
      .click();
    const bill = desk.getByRole('dialog');
    await expect(bill.getByText('Tilsamans við MVG')).toBeVisible();
    await expect(bill.getByText('Sunneva')).toBeVisible();
    await screenshot(desk, 'console-11c-bill');
    await bill.getByRole('button', { name: 'Lat aftur' }).click();
    await bills
      .getByRole('button', { name: /^Send rokning R-\d{6} aftur$/ })
      .first()
      .click();
    const resend = desk.getByRole('dialog');
    await resend.getByLabel('Orsøk').fill('Samtala 4712: fekk ikki teldupostin');
    await resend.getByRole('button', { name: 'Send aftur' }).click();
    await expect(desk.getByText(`Sent til ${owner.email}`, { exact: false })).toBeVisible();

    // The audit log: the read with its reason, the retry, the refund and the status message.
    await openArea(desk, 'Eftirlitslogg');
    const log = desk.getByRole('main');
    await expect(log.getByText('Samtala 4711: flytingin riggar ikki')).toBeVisible();
    await expect(log.getByText('Samtala 4711: kundin biður um nýggja roynd')).toBeVisible();
    await expect(log.getByText('Samtala 4711: bót fyri seinkaða flyting')).toBeVisible();
    await expect(log.getByText('Samtala 4712: fekk ikki teldupostin')).toBeVisible();
    await screenshot(desk, 'console-12-audit');

    await phone.close();
    await deskContext.close();
  });
});
