import type { Page } from '@playwright/test';
import { loginByEmail, screenshot, watchToasts } from './support/app';
import { expect, test } from './support/fixtures';
import {
  GOOD_ICCID,
  newCustomer as freshCustomer,
  registerCardOnProviderPage,
  type Customer,
} from './support/customer';
import { TMF641_API_PORT } from './support/tmf641';

const newCustomer = (firstname: string) => freshCustomer(firstname, 'e2e-signup');

/*
 * Becoming a customer (issue 11, SPEC §1 "A new-subscription sign-up flow with a SIM choice,
 * number porting and a 6-month commitment", §2, §3 "Signup payload", §4 "Subscription processing
 * can take days", §5, ADR 0055). The server runs the provisioning worker with 2-second steps
 * (playwright.config.ts), so an order goes through every step within a journey.
 *
 * Issue 43: these journeys run on the API with NETWORK_ADAPTER=tmf641, whose OSS is the demo's own
 * TMF641 server: every network step is a TMF641 service order completed by its events, and the
 * customer sees the same timeline as with the simulator (ADR 0082).
 */
test.use({ baseURL: `http://127.0.0.1:${TMF641_API_PORT}` });

/**
 * A SIM card number at "the other provider" that passes ITU-T E.118 (89…, Luhn) but ends in 0000,
 * so the network simulator rejects the port; and the corrected one.
 */
const REJECTED_ICCID = '8929 8020 0010 5550 000';
const CORRECT_ICCID = GOOD_ICCID;

/** The registration screen, as a new visitor fills it in (SPEC §2 register). */
async function registerInApp(page: Page, customer: Customer) {
  await page.goto('/stovna-brukara');
  await page.getByLabel('Fornavn').fill(customer.firstname);
  await page.getByLabel('Eftirnavn').fill(customer.lastname);
  await page.getByLabel('Teldupostur').fill(customer.email);
  await page.getByLabel('Telefonnummar').fill(customer.phoneNumber);
  await page.getByLabel('Føðingardagur').pressSequentially(customer.birthDate.replace(/\./g, ''));
  await page.getByLabel('Bústaður', { exact: true }).fill(customer.address);
  await page.getByLabel('Postnummar').fill(customer.postCode);
  await page
    .getByRole('radiogroup', { name: /postnummarið 485/ })
    .getByRole('radio', { name: customer.city })
    .click();
  await page.getByLabel('Loyniorð', { exact: true }).fill(customer.password);
  await page.getByLabel('Endurtak loyniorðið').fill(customer.password);
  await page.getByRole('button', { name: 'Stovna brúkara' }).click();
  await expect(page).toHaveURL(/\/valkomin$/);
}

interface ServiceOrder {
  state: string;
  orderDate?: string;
  serviceOrderItem: Array<{
    service: {
      serviceSpecification?: { id: string };
      serviceCharacteristic?: Array<{ name: string; value: unknown }>;
    };
  }>;
}

/**
 * The service specifications of the completed TMF641 orders for `number` at the demo's OSS
 * (`GET /tmf-api/serviceOrdering/v4/serviceOrder`, the server this spec runs on), oldest first.
 */
async function completedServiceOrders(page: Page, number: string): Promise<string[]> {
  const answer = await page.request.get(
    '/tmf-api/serviceOrdering/v4/serviceOrder?state=completed&limit=1000',
  );
  expect(answer.status(), await answer.text()).toBe(200);
  const orders = (await answer.json()) as ServiceOrder[];
  return orders
    .filter((order) =>
      order.serviceOrderItem.some((item) =>
        item.service.serviceCharacteristic?.some(
          (c) => c.name === 'msisdn' && c.value === `298${number}`,
        ),
      ),
    )
    .sort((a, b) => (a.orderDate ?? '').localeCompare(b.orderDate ?? ''))
    .map((order) => order.serviceOrderItem[0]?.service.serviceSpecification?.id ?? '?');
}

/**
 * Waits (the order screen refreshes itself while processing) until a step has happened: on the
 * timeline with its time, not among the steps to come.
 */
async function expectStep(page: Page, name: string, timeout = 30_000) {
  const steps = page.getByRole('list', { name: /^(Stig|Steps)$/ });
  await expect(
    steps
      .getByRole('listitem')
      .filter({ hasText: name })
      .filter({ has: page.locator('time') }),
  ).not.toHaveCount(0, { timeout });
}

test.describe('becoming a customer: sign-up, provisioning, SIM and eSIM (SPEC §1–§5, issue 11)', () => {
  test('a new user registers, orders an individual plan with a new number on an eSIM, registers a card, follows the order and installs the eSIM from its QR code', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const customer = newCustomer('Sólja');
    await registerInApp(page, customer);
    await screenshot(page, 'signup-01-welcome', { fullPage: false });

    // The welcome screen leads to the plans, and each plan to the sign-up (SPEC §2).
    await page.getByRole('link', { name: 'Sí hald okkara' }).click();
    await page.getByRole('link', { name: 'Bíleggja' }).first().click();
    await expect(page).toHaveURL(/\/nytt-hald\/individual_plan/);
    const plans = page.getByRole('radiogroup', { name: 'Vel hald' });
    await expect(plans.getByRole('radio', { checked: true })).toHaveCount(1);
    await screenshot(page, 'signup-02-plan');
    await page.getByRole('button', { name: 'Halt fram' }).click();

    // Number: search, reserve for 30 minutes with a visible countdown (SPEC §7 reserved-numbers).
    await page.getByRole('radio', { name: /Nýtt nummar/ }).click();
    await page.getByLabel('Ynskta nummarið').fill(customer.wanted);
    await page.getByRole('button', { name: 'Leita' }).click();
    await expect(page.getByText('Nummarið er tikið frá til tín')).toBeVisible();
    await expect(page.getByText(/Tú hevur (29|30):\d\d eftir/)).toBeVisible();
    await screenshot(page, 'signup-03-number-reserved');

    // A reload keeps the sign-up where it was (the draft is kept per user).
    await page.reload();
    await expect(page.getByText('Nummarið er tikið frá til tín')).toBeVisible();
    await page.getByRole('button', { name: 'Halt fram' }).click();

    // SIM: eSIM, with the help on whether the phone supports it.
    await page.getByRole('radio', { name: /eSIM/ }).first().click();
    await expect(page.getByText('Virkar eSIM á míni telefon?')).toBeVisible();
    await screenshot(page, 'signup-04-sim-esim');
    await page.getByRole('button', { name: 'Halt fram' }).click();

    // Confirm: the commitment and the terms are required (SPEC §5, §9 Commitment 6 months).
    await expect(page.getByRole('heading', { name: 'Er alt rætt?' })).toBeVisible();
    await expect(
      page.getByText(customer.wanted.replace(/(\d\d)(\d\d)(\d\d)/, '$1 $2 $3')),
    ).toBeVisible();
    await page.getByLabel('Eg góðtaki, at haldið hevur 6 mánaða bindingartíð.').check();
    await page.getByLabel('Eg havi lisið og góðtaki treytirnar.').check();
    await screenshot(page, 'signup-05-confirm-register-card');

    // No card on file yet: register it first on the provider's page, then come back (ADR 0055).
    await page.getByRole('button', { name: 'Skráset kort' }).click();
    await registerCardOnProviderPage(page);
    await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
    await expect(page.getByText('Kortið er skrásett')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Halt fram' }).click();
    await expect(page.getByRole('heading', { name: 'Er alt rætt?' })).toBeVisible();
    await expect(page.getByText(/Mánaðargjaldið verður tikið av/)).toBeVisible();
    await page.getByRole('button', { name: 'Bíleggja' }).click();

    // Placed: what happens next, then the order with its steps (SPEC §4).
    await expect(page.getByRole('heading', { name: 'Takk fyri bíleggingina!' })).toBeVisible();
    await screenshot(page, 'signup-06-done');
    await page.getByRole('link', { name: 'Sí bíleggingina' }).click();
    await expect(page).toHaveURL(/\/menu\/bilegingar\/[\w-]+$/);
    await expectStep(page, 'Bílegging móttikin');
    await screenshot(page, 'signup-07-order-processing');
    await expectStep(page, 'eSIM klárt at leggja inn');
    await expect(page.getByText('Legg eSIM inn og vátta, at tað virkar.')).toBeVisible();

    // The eSIM install screen: a QR code of the LPA activation code, and the codes to type.
    await page.getByRole('link', { name: 'Legg eSIM inn' }).first().click();
    await expect(page).toHaveURL(/\/sim-kort\/[\w-]+\/esim$/);
    await expect(page.getByRole('img', { name: /QR-kota við eSIM/ })).toBeVisible();
    // For manual entry (Android): the SM-DP+ address and the matching id of LPA:1$<address>$<id>.
    await expect(page.getByText('smdp.alda.fo', { exact: true })).toBeVisible();
    await expect(page.getByText(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/)).toBeVisible();
    await screenshot(page, 'signup-08-esim-install');

    // Installed: the customer confirms it works, and the number is active (SPEC §4).
    await page.goBack();
    await page.getByRole('button', { name: 'Mítt SIM virkar' }).click();
    await expectStep(page, 'Nummarið virkar');
    await expect(page.getByText('Bíleggingin er liðug, og nummarið virkar.')).toBeVisible();
    await screenshot(page, 'signup-09-order-active');

    // Issue 43: each network step was a TMF641 service order at the demo's own OSS — the eSIM
    // profile, then the number into service on it — and both were completed there.
    expect(await completedServiceOrders(page, customer.wanted)).toEqual([
      'alda-esim-profile',
      'alda-mobile-line',
    ]);

    // Home: the account has its plan now, so home shows the line and its data (SPEC §2 guards).
    await page.goto('/');
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByText(customer.wanted.replace(/(\d\d)(\d\d)(\d\d)/, '$1 $2 $3')).first(),
    ).toBeVisible();
    await screenshot(page, 'signup-10-home-with-line', { fullPage: false });
  });

  test('in English: a family plan keeping the number, a SIM picked up at a shop, a rejected port corrected by the customer', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const customer = newCustomer('Beinta');
    const registered = await page.request.post('/api/auth/register', {
      data: { ...customer, passwordRepeat: customer.password },
    });
    expect(registered.status(), await registered.text()).toBe(200);
    await loginByEmail(page, customer.email, customer.password);
    const toasts = await watchToasts(page);
    await expect(page).toHaveURL(/\/valkomin$/);
    await page.goto('/menu/mal');
    await page.getByRole('radio', { name: 'English' }).check();
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();

    await page.goto('/nytt-hald/family_plan');
    const plans = page.getByRole('radiogroup', { name: 'Choose a plan' });
    await plans.getByRole('radio').first().click();
    // Family plans show what each further member costs (SPEC §4 "+{price} kr.").
    await expect(page.getByText(/\+\d+(,\d\d)? kr\./).first()).toBeVisible();
    await screenshot(page, 'signup-en-01-family-plan');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Keep my number: the SIM card number is checked as ITU-T E.118 before anything is sent.
    await page.getByRole('radio', { name: /Keep my number/ }).click();
    await page.getByLabel('The number you want to keep').fill(customer.ported);
    await page
      .getByLabel('SIM card number at your current provider')
      .fill('8929 8020 0010 5550 001');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('The SIM card number is not valid.')).toBeVisible();
    await page.getByLabel('SIM card number at your current provider').fill(REJECTED_ICCID);
    await screenshot(page, 'signup-en-02-keep-number');
    await page.getByRole('button', { name: 'Continue' }).click();

    // A SIM card picked up at the shop in Klaksvík (the list comes from the API).
    await page.getByRole('radio', { name: /SIM card to put in your phone/ }).click();
    await page.getByRole('radio', { name: /Pick up at a shop/ }).click();
    await page.getByRole('radio', { name: /Klaksvík/ }).click();
    await screenshot(page, 'signup-en-03-pickup-shop');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Family plans also need every member at the same address (SPEC §5).
    await page.getByLabel('I accept the 6-month commitment of the subscription.').check();
    await page.getByLabel('I have read and accept the terms.').check();
    await page.getByRole('button', { name: 'Register card' }).click();
    await expect(page.getByText('You must accept to continue.')).toBeVisible();
    await page.getByLabel('All members of the family plan live at the same address.').check();
    await screenshot(page, 'signup-en-04-confirm');
    await page.getByRole('button', { name: 'Register card' }).click();
    await registerCardOnProviderPage(page, 'en');
    await expect(page.getByText('Your card is registered')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect(page.getByRole('heading', { name: 'Thank you for your order!' })).toBeVisible();
    await page.getByRole('link', { name: 'See the order' }).click();
    await expectStep(page, 'SIM card ready for pickup');

    // The other provider rejects the port: the customer sees why and corrects the number.
    await expectStep(page, 'Transfer rejected');
    await expect(
      page.getByText('The other provider rejected the transfer.', { exact: false }),
    ).toBeVisible();
    await screenshot(page, 'signup-en-05-port-rejected');
    await page.getByLabel('SIM card number at your current provider').fill(CORRECT_ICCID);
    await page.getByRole('button', { name: 'Send correction' }).click();
    await toasts.expectShown('Thank you! We are asking for the transfer again.');

    await expectStep(page, 'Number moved');
    await expectStep(page, 'The number works');
    await screenshot(page, 'signup-en-06-port-done');

    await page.goto('/');
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByText(customer.ported.replace(/(\d\d)(\d\d)(\d\d)/, '$1 $2 $3')).first(),
    ).toBeVisible();
    await screenshot(page, 'signup-en-07-home', { fullPage: false });
  });
});
