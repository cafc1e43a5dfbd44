import { formatPhoneNumber } from '@alda/contract/format/phone';
import type { APIRequestContext, Page } from '@playwright/test';
import { loginByEmail, screenshot } from './support/app';
import { answerSlowCard } from './support/customer';
import { expect, test, type Person } from './support/fixtures';

/**
 * Purchases with the built-in test provider's hosted card page and the live payment status
 * (issue 6, SPEC §1 extra packages and top-up, §4 "Payment flow", §8). Jóannes (family owner,
 * no card on file) buys extra data; Rói (prepaid talutíð) tops up — each journey its own copy of
 * them (support/fixtures.ts). The slow test card waits until the journey has seen the waiting
 * screen and answers it (answerSlowCard; playwright.config.ts TEST_PROVIDER_SLOW_DELAY_MS).
 */

/** Test cards of the built-in provider (docs/operations.md "Payments"). */
const CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  slow: '4000 0000 0000 3063',
};

interface Line {
  phoneNumber: string;
  dataRemaining: { domestic: number };
  dataTotal: { domestic: number };
  prepaidBalance?: number | null;
}

async function lineOf(request: APIRequestContext, { email, password }: Person): Promise<Line> {
  const login = await request.post('/api/auth/email-login', {
    data: { email, password },
  });
  expect(login.status()).toBe(200);
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  const answer = await request.get('/api/subscriptions', {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: { currentAccount: { currentMember: Line } } }).data
    .currentAccount.currentMember;
}

async function signInAs(page: Page, person: Person) {
  await loginByEmail(page, person.email, person.password);
  await expect(page).toHaveURL(/\/$/);
}

/** Fills the provider's hosted card page (in Faroese) and pays. */
async function payOnCardPage(page: Page, card: string) {
  await expect(page).toHaveURL(/\/test-provider\/checkout\//);
  await page.getByLabel('Kortnummar').fill(card);
  await page.getByLabel('Gildir til (MM/ÁÁ)').fill(`12/${(new Date().getFullYear() + 3) % 100}`);
  await page.getByLabel('Trygdarkota (CVC)').fill('123');
  await page.getByRole('button', { name: /^Gjalda / }).click();
}

/** Frames the payment hub sent to the page (SignalR JSON messages, 0x1E-separated). */
function hubFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/api/hubs/payment')) return;
    socket.on('framereceived', ({ payload }) => frames.push(String(payload)));
  });
  return frames;
}

/** Chooses a package on /keyp-pakka and confirms. */
async function buyPackage(page: Page, name: RegExp) {
  await page.getByRole('radio', { name }).click();
  await page.getByRole('button', { name: /^Keyp fyri / }).click();
}

test.describe('payments: extra packages and top-up with the provider’s card page (SPEC §1, §4, §8)', () => {
  test('buys 5 GB with the success card on the provider’s page; home’s data grows at once', async ({
    page,
    request,
    people,
  }) => {
    const { joannes: JOANNES } = people;
    const before = await lineOf(request, JOANNES);
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') chunks.push(r.url());
    });
    await signInAs(page, JOANNES);
    const ring = page.getByRole('meter').first();
    const ringBefore = await ring.getAttribute('aria-valuetext');
    // The SignalR client is loaded only on payment screens, never with home.
    expect(chunks.some((url) => url.includes('payment-hub'))).toBe(false);

    await page
      .getByRole('navigation', { name: 'Skjót val' })
      .getByRole('link', { name: 'Keyp pakka' })
      .click();
    await expect(page).toHaveURL(/\/keyp-pakka$/);
    const five = page.getByRole('radio', { name: /^5 GB/ });
    await expect(five).toContainText('99,00 kr.');
    await expect(five).toContainText('79,20 kr. uttan MVG · MVG 19,80 kr.');
    await expect(five).toContainText(/Galdandi til \d{2}\.\d{2}\.\d{4}/);
    await screenshot(page, 'payments-01-packages');

    await buyPackage(page, /^5 GB/);
    await expect(page).toHaveURL(/\/test-provider\/checkout\//);
    await expect(page.getByLabel('Kortnummar')).toBeVisible();
    await screenshot(page, 'payments-02-card-page');
    await payOnCardPage(page, CARDS.succeeds);

    await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
    const status = page.locator('[aria-live="polite"]');
    await expect(
      status.getByText(`5 GB er lagt afturat ${formatPhoneNumber(JOANNES.number)}`),
    ).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByRole('heading', { name: 'Gjaldið er móttikið' })).toBeVisible();
    await screenshot(page, 'payments-03-paid', { fullPage: false });

    // Exactly 5 GB more, on home at once (no reload, no waiting for a poll).
    const after = await lineOf(request, JOANNES);
    expect(after.dataRemaining.domestic).toBe(before.dataRemaining.domestic + 5 * 1024);
    await page.getByRole('link', { name: 'Til forsíðuna' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(ring).not.toHaveAttribute('aria-valuetext', ringBefore ?? '');
    await screenshot(page, 'payments-04-home-after', { fullPage: false });
  });

  test('the slow card: the status screen waits live on the payment hub and changes when PaymentUpdated arrives', async ({
    page,
    people,
  }) => {
    const { joannes: JOANNES } = people;
    const chunks: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') chunks.push(r.url());
    });
    const frames = hubFrames(page);
    await signInAs(page, JOANNES);
    await page.goto('/keyp-pakka');
    await buyPackage(page, /^1 GB/);
    await payOnCardPage(page, CARDS.slow);

    await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
    await expect(page.getByRole('heading', { name: 'Vit bíða eftir kortfelagnum' })).toBeVisible();
    await expect(page.getByText('Beinleiðis samband')).toBeVisible();
    await screenshot(page, 'payments-03b-pending-live', { fullPage: false });
    // The SignalR client came with the payment screen.
    expect(chunks.some((url) => url.includes('payment-hub'))).toBe(true);
    // The card company answers while the screen listens.
    await answerSlowCard(page);

    await expect(
      page.getByText(`1 GB er lagt afturat ${formatPhoneNumber(JOANNES.number)}`),
    ).toBeVisible({
      timeout: 15_000,
    });
    // The change came over the hub: a PaymentUpdated invocation for this order.
    const orderId = page.url().split('/').pop()!;
    expect(
      frames.some(
        (f) => f.includes('"PaymentUpdated"') && f.includes(orderId) && f.includes('"paid"'),
      ),
    ).toBe(true);
  });

  test('the declined card shows "Kortið varð avvíst"; trying another card buys it once', async ({
    page,
    request,
    people,
  }) => {
    const { joannes: JOANNES } = people;
    const before = await lineOf(request, JOANNES);
    await signInAs(page, JOANNES);
    await page.goto('/keyp-pakka');
    await buyPackage(page, /^1 GB/);
    await payOnCardPage(page, CARDS.declined);

    await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
    await expect(page.getByRole('heading', { name: 'Kortið varð avvíst' })).toBeVisible({
      timeout: 15_000,
    });
    await screenshot(page, 'payments-05-declined', { fullPage: false });
    expect((await lineOf(request, JOANNES)).dataRemaining.domestic).toBe(
      before.dataRemaining.domestic,
    );

    await page.getByRole('button', { name: 'Royn við øðrum korti' }).click();
    await payOnCardPage(page, CARDS.succeeds);
    await expect(
      page.getByText(`1 GB er lagt afturat ${formatPhoneNumber(JOANNES.number)}`),
    ).toBeVisible({
      timeout: 15_000,
    });
    expect((await lineOf(request, JOANNES)).dataRemaining.domestic).toBe(
      before.dataRemaining.domestic + 1024,
    );
  });

  test('the slow card with the hub connection cut mid-way: the HTTP fallback still shows the result', async ({
    page,
    request,
    people,
  }) => {
    const { joannes: JOANNES } = people;
    const before = await lineOf(request, JOANNES);
    await signInAs(page, JOANNES);
    // The hub works until the app listens to the order, then the network drops the socket and
    // refuses every reconnect: only the HTTP reads of GET /orders/:id can tell the outcome.
    let listening = false;
    await page.routeWebSocket(/\/api\/hubs\/payment/, (socket) => {
      if (listening) {
        void socket.close({ code: 1006 });
        return;
      }
      const server = socket.connectToServer();
      socket.onMessage((message) => {
        server.send(message);
        if (String(message).includes('ListenToOrder')) {
          listening = true;
          setTimeout(() => void socket.close({ code: 1006 }), 200);
        }
      });
    });

    await page.goto('/keyp-pakka');
    await buyPackage(page, /^1 GB/);
    await payOnCardPage(page, CARDS.slow);
    await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
    await expect(page.getByRole('heading', { name: 'Vit bíða eftir kortfelagnum' })).toBeVisible();
    await expect
      .poll(() => listening, { message: 'the app listened to the order on the hub' })
      .toBe(true);
    await expect(
      page.getByText(/Sambandið fór — bindur aftur|Vit kanna støðuna við jøvnum millumbilum/),
    ).toBeVisible();
    await screenshot(page, 'payments-06-slow-hub-cut', { fullPage: false });
    // The card company answers while the hub is cut: only the HTTP reads can tell.
    await answerSlowCard(page);

    await expect(
      page.getByText(`1 GB er lagt afturat ${formatPhoneNumber(JOANNES.number)}`),
    ).toBeVisible({
      timeout: 20_000,
    });
    expect((await lineOf(request, JOANNES)).dataRemaining.domestic).toBe(
      before.dataRemaining.domestic + 1024,
    );
  });

  test('Rói tops up his prepaid number by 100 kr. and sees the new balance', async ({
    page,
    request,
    people,
  }) => {
    const { roi: ROI } = people;
    const before = await lineOf(request, ROI);
    expect(before.prepaidBalance).not.toBeNull();
    await signInAs(page, ROI);
    await page
      .getByRole('navigation', { name: 'Skjót val' })
      .getByRole('link', { name: 'Fyll uppá' })
      .click();
    await expect(page).toHaveURL(/\/fyll-uppa$/);
    await page.getByRole('radio', { name: '100 kr.' }).click();
    await screenshot(page, 'payments-07-top-up');
    await page.getByRole('button', { name: 'Fyll uppá fyri 100,00 kr.' }).click();
    await payOnCardPage(page, CARDS.succeeds);

    await expect(
      page.getByText(`100 kr. er fylt uppá ${formatPhoneNumber(ROI.number)}`),
    ).toBeVisible({
      timeout: 15_000,
    });
    await screenshot(page, 'payments-08-top-up-paid', { fullPage: false });
    const after = await lineOf(request, ROI);
    expect(after.prepaidBalance).toBe((before.prepaidBalance ?? 0) + 10_000);
    await page.getByRole('link', { name: 'Til forsíðuna' }).click();
    const balance = ((after.prepaidBalance ?? 0) / 100).toFixed(2).replace('.', ',');
    await expect(page.getByText(`${balance} kr.`).first()).toBeVisible();
    const actions = page.getByRole('navigation', { name: 'Skjót val' });
    await expect(actions.getByRole('link', { name: 'Fyll uppá' })).toBeVisible();
    await actions.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'payments-09-home-prepaid', { fullPage: false });
  });
});
