import type { Page } from '@playwright/test';
import { chooseLanguage, loginByEmail, screenshot, watchToasts } from './support/app';
import { answerSlowCard, spaced } from './support/customer';
import { expect, test, type Person } from './support/fixtures';
import { outbox } from './support/outbox';

/**
 * Each journey's own copy of the demo customers (support/fixtures.ts; the seed is
 * apps/api/src/seed/demo-users.ts, demo-accounts.ts). Sunneva has no card on file and registers
 * one; Guðrun (individual 20 GB with the EU package, Mastercard •••• 5454 on file) changes hers and
 * pays her month with it. Jóannes (family owner, EU package on) toggles the EU package.
 */

/** Test cards of the built-in provider (docs/operations.md "Payments"). */
const CARDS = { succeeds: '4242 4242 4242 4242', slow: '4000 0000 0000 3063' };

async function signInAs(page: Page, person: Person) {
  await loginByEmail(page, person.email, person.password);
  await expect(page).toHaveURL(/\/(valkomin)?$/);
}

/** Fills the provider's hosted card page (served by the test provider, in Faroese) and submits. */
async function payOnCardPage(page: Page, card: string) {
  await expect(page).toHaveURL(/\/test-provider\/checkout\//);
  await page.getByLabel('Kortnummar').fill(card);
  await page.getByLabel('Gildir til (MM/ÁÁ)').fill(`12/${(new Date().getFullYear() + 3) % 100}`);
  await page.getByLabel('Trygdarkota (CVC)').fill('123');
  await page.getByRole('button', { name: 'Goym kortið' }).click();
}

/** The payment status screen (SPEC §4 payment flow) once the provider reported the card paid. */
async function expectCardSaved(page: Page) {
  await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
  await expect(page.getByText('Kortið er skrásett')).toBeVisible({ timeout: 20_000 });
}

test.describe('account payments: card on file, monthly price, receipts, EU package (SPEC §1, §2, §8, §9)', () => {
  test('registers a card on file on the provider’s page and sees its brand and last 4', async ({
    page,
    people,
  }) => {
    const { sunneva: SUNNEVA } = people;
    await signInAs(page, SUNNEVA);

    // Profile → payment agreement (SPEC §2 profile.agreement, no footer): no card yet.
    await page.goto('/min-brukari');
    await page.getByRole('link', { name: 'Gjaldsavtala' }).click();
    await expect(page).toHaveURL(/\/min-brukari\/gjaldsavtala$/);
    await expect(page.getByRole('heading', { name: 'Einki kort er skrásett' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Høvuðsvalmynd' })).toHaveCount(0);
    await screenshot(page, 'account-payments-01-agreement-empty');

    // Register a card: the provider's hosted page, then the live status screen.
    await page.getByRole('button', { name: 'Skráset kort' }).click();
    await expect(page).toHaveURL(/\/test-provider\/checkout\//);
    await screenshot(page, 'account-payments-02-provider-card-page');
    await payOnCardPage(page, CARDS.succeeds);
    await expectCardSaved(page);

    await page.goto('/min-brukari/gjaldsavtala');
    await expect(page.getByRole('heading', { name: 'Visa' })).toBeVisible();
    await expect(page.getByLabel('Kort sum endar við 4242')).toBeVisible();
    await expect(page.getByText('Virkin')).toBeVisible();
    await screenshot(page, 'account-payments-03-agreement-visa-4242');
  });

  test('changes the card on file, pays the month with it, and downloads and e-mails the receipt', async ({
    page,
    people,
  }) => {
    const { gudrun: GUDRUN } = people;
    test.setTimeout(90_000);
    // This phone chose Faroese (SPEC §1): that wins here over Guðrun's English (issue 33 §3).
    await page.goto('/rita-inn');
    await chooseLanguage(page, 'Føroyskt');
    await signInAs(page, GUDRUN);
    const toasts = await watchToasts(page);
    await page.goto('/min-brukari/gjaldsavtala');
    await expect(page.getByRole('heading', { name: 'Mastercard' })).toBeVisible();
    await expect(page.getByLabel('Kort sum endar við 5454')).toBeVisible();

    // Change the card: the new one replaces the old (the slow card, answered by the card company
    // once the status screen waits for it).
    await page.getByRole('button', { name: 'Skift kort' }).click();
    await payOnCardPage(page, CARDS.slow);
    // Back from the provider's page: the app starts again on the status screen (each wait its
    // own budget on a busy machine, as payments.spec does).
    await expect(page).toHaveURL(/\/betaling\/[\w-]+$/);
    await expect(page.getByRole('heading', { name: 'Vit bíða eftir kortfelagnum' })).toBeVisible();
    await answerSlowCard(page);
    await expectCardSaved(page);
    await page.goto('/min-brukari/gjaldsavtala');
    await expect(page.getByRole('heading', { name: 'Visa' })).toBeVisible();
    await expect(page.getByLabel('Kort sum endar við 3063')).toBeVisible();
    await expect(page.getByLabel('Kort sum endar við 5454')).toHaveCount(0);

    // Monthly price: her number's plan and EU package, totals with and without VAT; pay it
    // with the card on file.
    await page.goto('/menu');
    await page.getByRole('link', { name: 'Mánaðargjald' }).click();
    await expect(page).toHaveURL(/\/menu\/manadargjald$/);
    const month = page.getByRole('region', { name: /^\p{L}+ \d{4}$/u });
    await expect(month.getByRole('region', { name: spaced(GUDRUN.number) })).toBeVisible();
    await expect(month).toContainText('Uttan MVG');
    await expect(month).toContainText('MVG 25 %');
    await expect(month).toContainText('Tilsamans við MVG');
    await expect(month.getByText('Ikki goldið')).toBeVisible();
    await screenshot(page, 'account-payments-04-monthly-price');
    const total =
      (await month.getByText('Tilsamans við MVG').locator('xpath=..').textContent()) ?? '';
    const amount = /([\d.]+,\d\d kr\.)/.exec(total)?.[1];
    expect(amount, 'the total with VAT').toBeTruthy();
    await page.getByRole('button', { name: 'Gjald við Visa •••• 3063' }).click();
    const confirm = page.getByRole('dialog', { name: 'Gjalda mánaðargjaldið?' });
    await expect(confirm).toContainText(amount!);
    await confirm.getByRole('button', { name: 'Gjald' }).click();
    // Her card on file is the slow one: the card company answers once the screen waits.
    await expect(page.getByRole('heading', { name: 'Vit bíða eftir kortfelagnum' })).toBeVisible();
    await answerSlowCard(page);
    await expect(page.getByText('Mánaðin er goldin')).toBeVisible({ timeout: 20_000 });

    await page.goto('/menu/manadargjald');
    await expect(page.getByText('Goldið', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Gjald/ })).toHaveCount(0);

    // Receipts: the month's receipt, opened, downloaded as a PDF and e-mailed.
    await page.goto('/menu');
    await page.getByRole('link', { name: 'Kvittanir' }).click();
    await expect(page).toHaveURL(/\/menu\/kvittanir$/);
    const receipts = page.getByRole('list', { name: 'Kvittanir' });
    const first = receipts.getByRole('link').first();
    await expect(first).toContainText(/K-\d{4}-\d{6} · \d\d\.\d\d\.\d{4}/);
    await expect(first).toContainText(amount!);
    await screenshot(page, 'account-payments-05-receipts');
    await first.click();
    await expect(page).toHaveURL(/\/menu\/kvittanir\/[\w-]+$/);
    const receipt = page.getByRole('region', { name: /^Kvittan K-\d{4}-\d{6}$/ });
    await expect(receipt).toContainText('MVG 25 %');
    await expect(receipt).toContainText('goldið við Visa •••• 3063');
    await expect(receipt.getByText('Tilsamans við MVG').locator('xpath=..')).toContainText(amount!);
    await screenshot(page, 'account-payments-06-receipt');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Tak niður' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^kvittan-K-\d{4}-\d{6}\.pdf$/);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(pdf.subarray(0, 4).toString('latin1')).toBe('%PDF');

    await page.getByRole('button', { name: 'Send við telduposti' }).click();
    await toasts.expectShown(`Kvittanin er send til ${GUDRUN.email}`);
    await screenshot(page, 'account-payments-07-receipt-emailed', { fullPage: false });
    const number = (await receipt.getByRole('heading').textContent())?.replace('Kvittan ', '');
    await expect
      .poll(async () => (await outbox(page, GUDRUN.email)).map((m) => `${m.subject} ${m.text}`))
      .toContainEqual(expect.stringContaining(number!));
  });

  test('the owner turns the EU package off and on again with its price, and sees the family’s lines in the monthly price', async ({
    page,
    people,
  }) => {
    const { joannes: OWNER, sunneva: SUNNEVA } = people;
    await signInAs(page, OWNER);
    const toasts = await watchToasts(page);
    await page.goto(`/umsit-hald/${OWNER.number}`);
    const eu = page.getByRole('switch', { name: 'ES-pakki' });
    await expect(eu).toBeChecked();
    await expect(page.getByText(/^\+\d+ kr\. um mánaðin · .+ í ES$/)).toBeVisible();
    // In the middle of the screen, clear of the fixed footer.
    await eu.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'account-payments-08-eu-package-on', { fullPage: false });

    await eu.click();
    const off = page.getByRole('dialog', { name: 'Tak ES-pakkan burtur?' });
    await off.getByRole('button', { name: 'Tak burtur' }).click();
    await toasts.expectShown('ES-pakkin er tikin burtur.');
    await expect(eu).not.toBeChecked();

    await eu.click();
    const on = page.getByRole('dialog', { name: 'Legg ES-pakkan afturat?' });
    await expect(on).toContainText(/ES-pakkin kostar \+\d+ kr\. um mánaðin/);
    await screenshot(page, 'account-payments-09-eu-package-confirm', { fullPage: false });
    await on.getByRole('button', { name: 'Legg afturat' }).click();
    await toasts.expectShown('ES-pakkin er lagdur afturat.');
    await expect(eu).toBeChecked();

    // The monthly price of the family: a section per number with its lines, and the EU package.
    await page.goto('/menu/manadargjald');
    const month = page.getByRole('region', { name: /^\p{L}+ \d{4}$/u });
    await expect(month.getByRole('region', { name: spaced(OWNER.number) })).toBeVisible();
    await expect(month.getByRole('region', { name: spaced(SUNNEVA.number) })).toBeVisible();
    await expect(month).toContainText('ES-pakki');
    await expect(month).toContainText('Tilsamans við MVG');
    await screenshot(page, 'account-payments-10-family-monthly-price');
  });

  test('the owner reads his monthly bills, the family’s itemised use and the PDF; a member sees only her own number (ADR 0098)', async ({
    page,
    browser,
    people,
  }) => {
    const { joannes: OWNER, sunneva: MEMBER } = people;
    await signInAs(page, OWNER);

    // Menu → Rokningar: the seeded months, newest first, paid with his card agreement.
    await page.goto('/menu');
    await page.getByRole('link', { name: 'Rokningar' }).click();
    await expect(page).toHaveURL(/\/menu\/rokningar$/);
    const list = page.getByRole('list', { name: 'Rokningar' });
    const newest = list.getByRole('link').first();
    await expect(newest).toContainText('Goldin');
    await expect(newest).toContainText(/gjaldsavtalu/);
    await screenshot(page, 'bills-01-list');

    // One bill: his own numbers first, then Sunneva's, VAT split out.
    await newest.click();
    await expect(page).toHaveURL(/\/menu\/rokningar\/[\w-]+$/);
    const own = page.getByRole('region', { name: `${spaced(OWNER.number)}, Títt nummar` });
    const hers = page.getByRole('region', { name: `${spaced(MEMBER.number)}, Sunneva` });
    await expect(own).toBeVisible();
    await expect(hers).toContainText('familjulimur');
    await expect(
      page.getByRole('region', { name: `${spaced(OWNER.workLine)}, Títt nummar` }),
    ).toBeVisible();
    await expect(page.getByText('MVG 25 %')).toBeVisible();
    await expect(page.getByText('Tilsamans við MVG')).toBeVisible();
    await screenshot(page, 'bills-02-bill');

    // The PDF, made on the server.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Tak niður PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^rokning-R-\d{6}\.pdf$/);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 4).toString('latin1')).toBe('%PDF');

    // Sunneva's calls on his bill: masked, and no way to show them in full.
    await hers.getByRole('link', { name: /^Sundurgreinað nýtsla/ }).click();
    await expect(page).toHaveURL(new RegExp(`/nummar/${MEMBER.number}$`));
    await expect(page.getByRole('switch', { name: 'Vís full nummur' })).toHaveCount(0);
    await expect(page.getByText(/\d{3}•••/).first()).toBeVisible();
    await page.getByRole('radio', { name: 'Samtalur' }).click();
    await expect(page.getByText('Samtala').first()).toBeVisible();
    await screenshot(page, 'bills-03-usage-member-line');

    // His own number: the full numbers once he asks for them.
    await page.goBack();
    await own.getByRole('link', { name: /^Sundurgreinað nýtsla/ }).click();
    await expect(page).toHaveURL(new RegExp(`/nummar/${OWNER.number}$`));
    await expect(page.getByText(/\d{3}•••/).first()).toBeVisible();
    await page.getByRole('switch', { name: 'Vís full nummur' }).click();
    await expect(page.getByText(/\d{3}•••/)).toHaveCount(0);
    await expect(page.getByText(/\d{6}/).first()).toBeVisible();
    await screenshot(page, 'bills-04-usage-own-full');

    // Sunneva on her own phone: her number's part only, no PDF.
    const phone = await browser.newContext({ viewport: page.viewportSize() });
    const hersPage = await phone.newPage();
    try {
      await loginByEmail(hersPage, MEMBER.email, MEMBER.password);
      await expect(hersPage).toHaveURL(/\/(valkomin)?$/);
      await hersPage.goto('/menu/rokningar');
      await expect(hersPage.getByText(/Tú sært bert tín part/)).toBeVisible();
      await hersPage.getByRole('list', { name: 'Rokningar' }).getByRole('link').first().click();
      await expect(hersPage.getByRole('region', { name: spaced(MEMBER.number) })).toBeVisible();
      await expect(
        hersPage.getByRole('region', { name: new RegExp(spaced(OWNER.number)) }),
      ).toHaveCount(0);
      await expect(hersPage.getByRole('button', { name: 'Tak niður PDF' })).toHaveCount(0);
      await screenshot(hersPage, 'bills-05-member');
    } finally {
      await phone.close();
    }
  });
});
