import type { APIRequestContext } from '@playwright/test';
import { screenshot, signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { VIPPS_API_PORT, VIPPS_PRISM_PORT } from './support/vipps';

/**
 * Issue 42: the app on PAYMENT_PROVIDER=vipps-mobilepay, against Vipps MobilePay's own published
 * API documents under Prism (request validation on; playwright.config.ts starts both). As far as
 * a mock allows: the MobilePay button, the redirect URL taken from the provider's answer, the
 * return to the payment status screen, and the agreement screen's MobilePay wording. Prism cannot
 * approve a payment, so the journey ends where the customer waits on MobilePay; the approval,
 * capture and fulfilment are proven by the API tests (payments.vipps-mobilepay.test.ts).
 */
test.use({ baseURL: `http://127.0.0.1:${VIPPS_API_PORT}` });

const inspection = `http://127.0.0.1:${VIPPS_PRISM_PORT + 1}`;

interface SentRequest {
  method: string;
  path: string;
  body: { reference?: string; returnUrl?: string; paymentMethod?: { type: string } } | undefined;
  status: number;
}

async function sentToProvider(request: APIRequestContext): Promise<SentRequest[]> {
  const answer = await request.get(`${inspection}/requests`);
  expect(answer.status()).toBe(200);
  return (await answer.json()) as SentRequest[];
}

test('pays with MobilePay through Vipps MobilePay: the button, their redirect, the return screen', async ({
  page,
  request,
  people,
}) => {
  const { joannes } = people;
  // Their landing page is on the internet, which the journeys do not reach: a stand-in page
  // records that the app went exactly where the provider's answer said.
  await page.route('https://landing.vipps.no/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>MobilePay</title><p>MobilePay</p>' }),
  );
  await signIn(page, joannes);

  await page.goto('/keyp-pakka');
  const mobilepay = page.getByRole('radio', { name: /MobilePay/ });
  const card = page.getByRole('radio', { name: /Gjaldskort|Kort/ });
  await expect(mobilepay).toBeVisible();
  await expect(card).toBeVisible();
  // MobilePay first, as the provider lists it, and chosen.
  await expect(mobilepay).toHaveAttribute('aria-checked', 'true');
  await page.getByRole('radio', { name: /^1 GB/ }).click();
  await screenshot(page, 'vipps-01-packages-mobilepay');

  const toLanding = page.waitForRequest((r) => r.url().startsWith('https://landing.vipps.no/'));
  await page.getByRole('button', { name: /^Keyp fyri / }).click();
  const landing = await toLanding;
  // The URL is the one their answer gave (the ePayment document's example).
  expect(landing.url()).toBe('https://landing.vipps.no/?token=eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1Ni');
  await page.waitForURL('https://landing.vipps.no/**', { waitUntil: 'load' });

  const create = (await sentToProvider(request)).findLast(
    (r) => r.method === 'POST' && r.path === '/epayment/v1/payments',
  );
  expect(create?.status).toBe(201);
  expect(create?.body?.paymentMethod?.type).toBe('WALLET');
  const returnUrl = create?.body?.returnUrl ?? '';
  expect(returnUrl).toMatch(
    new RegExp(`^http://127\\.0\\.0\\.1:${VIPPS_API_PORT}/betaling/[\\w-]+$`),
  );

  // MobilePay sends the customer back to the return URL: the status screen waits for MobilePay.
  await page.goto(returnUrl);
  await expect(page.getByRole('heading', { name: 'Vit bíða eftir MobilePay' })).toBeVisible();
  await screenshot(page, 'vipps-02-waiting-for-mobilepay', { fullPage: false });

  // The agreement is approved in MobilePay, not with a card.
  await page.goto('/min-brukari/gjaldsavtala');
  await expect(page.getByRole('button', { name: 'Góðkenn í MobilePay' })).toBeVisible();
  // Jóannes's card agreement was made with the test provider: it is never charged through Vipps
  // MobilePay, and the screen asks him to approve a new one (issue 61 §2).
  await expect(page.getByText('Má endurnýggjast')).toBeVisible();
  await expect(page.getByText(/^Vit hava skift gjaldveitara/)).toBeVisible();
  await screenshot(page, 'vipps-03-agreement-mobilepay');

  // Everything the adapter sent is valid against their documents.
  const violations = await request.get(`${inspection}/violations`);
  expect(await violations.json()).toEqual([]);
});
