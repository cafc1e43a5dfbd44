import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { numberClassOf } from '@alda/contract/rules/number-picker';

/*
 * Fresh customers for the journeys that change a subscription's life (the demo customers are
 * shared by every journey and must stay as they are). What a journey is not about — registering,
 * the sign-up itself — is done through the API the app uses; the card is registered on the
 * provider's hosted page, as only a browser can.
 */

/** Test card of the built-in provider (docs/operations.md "Payments"). */
export const TEST_CARD = '4242 4242 4242 4242';

/** A SIM card number that passes ITU-T E.118 (89…, Luhn) and that the network simulator takes. */
export const GOOD_ICCID = '8929 8010 0000 0000 128';

let serial = 0;

/**
 * The last four digits of the numbers a customer gets. Journeys run in several worker processes
 * against one server (two at once, then the global ones), so each worker draws from a block of
 * 1000 of its own (its worker index, unique in a run), one after the other from a start set by
 * the clock (a server kept between local runs already holds the last run's customers); workers
 * that drew from the clock alone could take the same numbers (PHONE_ALREADY_REGISTERED). Never a tail that makes a number of ours "golden" (ADR
 * 0077): 29 5295 is a repeat, which the picker offers at a price instead of reserving it, and a
 * journey's path would then hang on the clock.
 */
function ordinaryTail(): string {
  const block = Number(process.env.TEST_WORKER_INDEX ?? '0') % 10;
  for (;;) {
    serial += 1;
    const tail = String(block * 1000 + ((FIRST + serial) % 1000)).padStart(4, '0');
    if (['29', '28', '51', '31'].every((prefix) => numberClassOf(`${prefix}${tail}`) === null))
      return tail;
  }
}

/** Where this worker's numbers start in its block: the clock's seconds when it began. */
const FIRST = Math.floor(Date.now() / 1000) % 1000;

/** A new person with unused numbers: 51xxxx their own, 29xxxx free numbers of ours to order. */
export function newCustomer(firstname: string, prefix = 'e2e') {
  const tail = ordinaryTail();
  const stamp = `${Date.now()}${serial}`;
  return {
    firstname,
    lastname: 'Hansen',
    email: `${prefix}-${stamp}@example.fo`,
    phoneNumber: `51${tail}`,
    birthDate: '03.02.1988',
    address: 'Undir Bakka 3',
    postCode: '485',
    city: 'Skálafjørður',
    password: 'Fyrsta-Loyniord1',
    /** Free numbers of ours to order (29xxxx, 28xxxx). */
    wanted: `29${tail}`,
    wantedToo: `28${tail}`,
    /** A number at another provider to keep: 31xxxx. */
    ported: `31${tail}`,
  };
}
export type Customer = ReturnType<typeof newCustomer>;

/** "291234" as the app shows it: "29 12 34". */
export const spaced = (number: string) => number.replace(/(\d\d)(\d\d)(\d\d)/, '$1 $2 $3');

/** The provider's hosted card page, in Faroese or English. */
const PROVIDER_PAGE = {
  fo: {
    number: 'Kortnummar',
    expiry: 'Gildir til (MM/ÁÁ)',
    cvc: 'Trygdarkota (CVC)',
    save: 'Goym kortið',
  },
  en: {
    number: 'Card number',
    expiry: 'Expiry (MM/YY)',
    cvc: 'Security code (CVC)',
    save: 'Save card',
  },
};

/** Fills the provider's hosted card page and saves the card. */
export async function registerCardOnProviderPage(page: Page, lang: 'fo' | 'en' = 'fo') {
  const label = PROVIDER_PAGE[lang];
  await expect(page).toHaveURL(/\/test-provider\/checkout\//);
  await page.getByLabel(label.number).fill(TEST_CARD);
  await page.getByLabel(label.expiry).fill(`12/${(new Date().getFullYear() + 3) % 100}`);
  await page.getByLabel(label.cvc).fill('123');
  await page.getByRole('button', { name: label.save }).click();
}

/** A signed-in API client of one customer (bearer token), as the app calls the API. */
export interface CustomerApi {
  get(path: string): Promise<unknown>;
  send(method: 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<unknown>;
}

export function customerApi(request: APIRequestContext, accessToken: string): CustomerApi {
  const headers = { authorization: `Bearer ${accessToken}` };
  const unwrap = async (response: Awaited<ReturnType<APIRequestContext['get']>>) => {
    const text = await response.text();
    expect(response.ok(), `${response.url()}: ${text}`).toBe(true);
    return text ? (JSON.parse(text) as { data?: unknown }).data : undefined;
  };
  return {
    get: async (path) => unwrap(await request.get(path, { headers })),
    send: async (method, path, data) =>
      unwrap(
        await request.fetch(path, {
          method,
          headers: { ...headers, 'idempotency-key': randomUUID() },
          data,
        }),
      ),
  };
}

/**
 * Registers `customer` through the API and returns their API client (the card and the
 * subscription come after).
 */
export async function registerByApi(request: APIRequestContext, customer: Customer) {
  const registered = await request.post('/api/auth/register', {
    data: { ...customer, passwordRepeat: customer.password },
  });
  expect(registered.status(), await registered.text()).toBe(200);
  const login = await request.post('/api/auth/email-login', {
    data: { email: customer.email, password: customer.password },
  });
  const tokens = (await login.json()) as { data: { accessToken: string } };
  return customerApi(request, tokens.data.accessToken);
}

/**
 * Registers a card on file: the API opens the provider's page, the browser fills it in. What it
 * checks is what the registration means: the provider answers the card form with a 303 back to
 * the payment's own screen (`/betaling/<order id>` of the app), and the agreement turns active.
 * The browser page has no session of its own (the customer was registered through the API), so
 * the app's guard sends it on to the login screen right after; the URL the page stands on is
 * therefore not asserted (issue 41), the provider's redirect is.
 */
export async function registerCard(page: Page, api: CustomerApi) {
  const placed = (await api.send('POST', '/api/agreements', {})) as {
    order: { id: string };
    paymentUrl: string;
  };
  await page.goto(placed.paymentUrl);
  const backToApp = page.waitForRequest(
    (request) => new URL(request.url()).pathname === `/betaling/${placed.order.id}`,
  );
  await registerCardOnProviderPage(page);
  const sentBack = (await backToApp).redirectedFrom();
  expect(sentBack?.method(), 'the card form posted to the provider').toBe('POST');
  expect(sentBack?.url()).toMatch(/\/test-provider\/checkout\//);
  expect((await sentBack?.response())?.status(), 'the provider sends the customer back').toBe(303);
  await expect
    .poll(async () => ((await api.get('/api/agreements')) as { status: string } | null)?.status, {
      timeout: 20_000,
    })
    .toBe('active');
}

/**
 * Signs `api`'s customer up for `planId` with a new number (reserved now) on a SIM card they
 * already hold, and waits until provisioning has put the number in service.
 */
export async function subscribeByApi(api: CustomerApi, planId: string, number: string) {
  const reserved = (await api.send('POST', '/api/auth/reserved-numbers', {
    phoneNumber: number,
  })) as { reservationId: string | null };
  expect(reserved.reservationId, `number ${number} is free`).not.toBeNull();
  const placed = (await api.send('POST', '/api/subscriptions', {
    planId,
    euPackage: false,
    phoneNumberReservationId: reserved.reservationId,
    eSim: false,
    hasAcceptedBindingPeriod: true,
    hasAcceptedTerms: true,
    sameAddressConfirmed: true,
    simcardNumber: GOOD_ICCID.replace(/ /g, ''),
    porting: null,
    simPickupLocationId: null,
    simShippingAddress: null,
  })) as { order: { id: string } };
  await expect
    .poll(
      async () =>
        ((await api.get(`/api/orders/${placed.order.id}`)) as { isComplete: boolean }).isComplete,
      { timeout: 30_000 },
    )
    .toBe(true);
  return placed.order.id;
}

/**
 * The card company answers the slow test card of the payment `page` shows (`/betaling/<order
 * id>`) now — demo mode's control (issue 41). In the journeys the slow card waits until told
 * (playwright.config.ts TEST_PROVIDER_SLOW_DELAY_MS): a journey asserts the waiting screen for as
 * long as it needs, then lets the payment go on, instead of racing a timer a busy machine loses.
 */
export async function answerSlowCard(page: Page) {
  await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
  const orderId = new URL(page.url()).pathname.split('/').pop() ?? '';
  const answered = await page.request.post(`/dev/payments/${orderId}/answer`);
  expect(answered.status(), await answered.text()).toBe(200);
}

/** Passes ITU-T E.118 but ends in 0000: the network simulator's other provider rejects it. */
export const REJECTED_ICCID = '8929 8020 0010 5550 000';

/**
 * Orders a 5 GB eSIM subscription that keeps `customer.ported` from another provider, with a SIM
 * card number that provider rejects, and waits until the order shows the rejected port. Needs a
 * card on file ({@link registerCard}). Answers the order's id.
 */
export async function orderRejectedPort(api: CustomerApi, customer: Customer): Promise<string> {
  const placed = (await api.send('POST', '/api/subscriptions', {
    planId: 'individual-5',
    euPackage: false,
    phoneNumberReservationId: null,
    eSim: true,
    hasAcceptedBindingPeriod: true,
    hasAcceptedTerms: true,
    sameAddressConfirmed: true,
    simcardNumber: null,
    porting: { phoneNumber: customer.ported, simcardNumber: REJECTED_ICCID.replace(/ /g, '') },
    simPickupLocationId: null,
    simShippingAddress: null,
  })) as { order: { id: string } };
  const orderId = placed.order.id;
  await expect
    .poll(
      async () =>
        (
          (await api.get(`/api/orders/${orderId}`)) as {
            provisioning?: { steps: { step: string }[] } | null;
          }
        ).provisioning?.steps.some((s) => s.step === 'port_rejected'),
      { timeout: 30_000 },
    )
    .toBe(true);
  return orderId;
}
