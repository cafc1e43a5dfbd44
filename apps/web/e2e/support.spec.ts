import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { screenshot } from './support/app';
import { DESK, demoStaff, signInToConsole } from './support/console';
import {
  newCustomer,
  orderRejectedPort,
  registerByApi,
  registerCard,
  spaced,
} from './support/customer';
import { expect, test } from './support/fixtures';

/*
 * Talk to us (issue 46, ADR 0088), on both sides at once: Guðrun, in English, writes from her
 * rejected port with a photo of her SIM card; the desk sees it in "new", takes it, sees the order
 * beside it and answers with a saved reply in English; Guðrun's open thread shows the answer
 * without a reload and she answers back; the desk closes it and she rates it. Every screen of
 * both apps is checked with axe (the screenshot helper).
 */

/** A staff member of `role` in a browser of their own at a desk, in the console's `area`. */
async function atTheDesk(browser: Browser, role: 'support' | 'content', area: string) {
  const context = await browser.newContext({ viewport: DESK, locale: 'fo-FO' });
  const page = await context.newPage();
  await signInToConsole(page, demoStaff(role));
  await page
    .getByRole('navigation', { name: 'Høvuðsvalmynd' })
    .getByRole('link', { name: area })
    .click();
  return { context, page };
}

/** Every image on the page has loaded and has pixels (no broken-image box, none still loading). */
async function expectImagesShown(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() =>
        Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
      ),
    )
    .toBe(true);
  expect(await page.evaluate(() => document.images.length)).toBeGreaterThan(0);
}

test.describe('support conversations (issue 46)', () => {
  test('Guðrun writes from her rejected port with a photo; the desk answers with a saved reply; she sees it live, answers back, and rates it once it is closed', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);

    // Guðrun: registered, English on her account, a card on file, and a number to keep from
    // another provider whose SIM card number she typed wrong, so the port is rejected.
    const guðrun = newCustomer('Guðrun', 'e2e-support');
    const api = await registerByApi(page.request, guðrun);
    await api.send('PATCH', '/api/auth/me', { locale: 'en' });
    await registerCard(page, api);
    const orderId = await orderRejectedPort(api, guðrun);

    // 1. In the app, from the order: "Write to us about this", with a photo of her SIM card.
    await page.goto('/rita-inn/vid-telduposti');
    await page.getByLabel('Teldupostur').fill(guðrun.email);
    await page.getByLabel('Loyniorð', { exact: true }).fill(guðrun.password);
    await page.getByRole('button', { name: 'Rita inn' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/menu/bilegingar/${orderId}`);
    await page.getByRole('link', { name: 'Write to us about this' }).click();
    await expect(page.getByText(`About order ${spaced(guðrun.ported)}`)).toBeVisible();
    await page
      .getByLabel('Your message')
      .fill('My number was not moved. Here is a photo of the SIM card from my old provider.');
    const photo = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: '#d33' },
    })
      .withExifMerge({ IFD0: { Model: 'Guðrun’s phone' } })
      .jpeg()
      .toBuffer();
    await page
      .getByLabel('Add a photo')
      .setInputFiles({ name: 'sim-card.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(page.getByRole('button', { name: 'Remove photo 1' })).toBeVisible();
    await expectImagesShown(page);
    await screenshot(page, 'support-01-new');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByText('My number was not moved.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show photo 1 larger' })).toBeVisible();
    await expectImagesShown(page);
    await screenshot(page, 'support-02-thread');

    // 2. The desk: "new", take it, the order beside it, a saved reply in English.
    const { context: deskContext, page: desk } = await atTheDesk(
      browser,
      'support',
      'Kundatænasta',
    );
    const row = desk.getByRole('row').filter({ hasText: `${guðrun.firstname} ${guðrun.lastname}` });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await screenshot(desk, 'support-desk-01-inbox');
    await row.getByRole('link').first().click();
    await desk.getByRole('button', { name: 'Tak samrøðuna' }).click();
    await expect(desk.getByText('Samrøðan er nú hjá tær.')).toBeVisible();
    await expect(desk.getByText('Samrøðan snýr seg um hetta')).toBeVisible();
    await expect(desk.getByText('Flytingin avvíst').first()).toBeVisible();
    await desk.getByLabel('Goymt svar').selectOption({ label: 'Flyting avvíst: SIM-kortnummarið' });
    await desk.getByRole('button', { name: 'Set inn' }).click();
    await expect(desk.getByLabel('Títt svar')).toHaveValue(/The other provider rejected the move/);
    await expectImagesShown(desk);
    await screenshot(desk, 'support-desk-02-conversation');
    await desk.getByRole('button', { name: 'Send svar' }).click();
    await expect(desk.getByText('Svarið er sent kundanum.')).toBeVisible();

    // 3. Guðrun's open thread shows the answer without a reload; she answers back.
    await expect(page.getByText(/The other provider rejected the move/)).toBeVisible({
      timeout: 15_000,
    });
    await page.getByLabel('Your reply').fill('Thank you, I have corrected the number now.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByText('Thank you, I have corrected the number now.')).toBeVisible();
    await screenshot(page, 'support-03-answered');

    // 4. The desk sees it (the thread refreshes itself), closes; Guðrun rates it.
    await expect(desk.getByText('Thank you, I have corrected the number now.')).toBeVisible({
      timeout: 20_000,
    });
    await desk.getByRole('button', { name: 'Lat samrøðuna aftur' }).click();
    await desk.getByRole('dialog').getByRole('button', { name: 'Lat aftur' }).click();
    await expect(desk.getByText('Samrøðan er latin aftur.')).toBeVisible();

    await expect(page.getByText('How well did our answer help you?')).toBeVisible({
      timeout: 15_000,
    });
    await screenshot(page, 'support-04-rate');
    // She taps the fifth star (the radio itself is for screen readers and the keyboard).
    const five = page.getByRole('radio', { name: '5 stars' });
    await page.locator('label').filter({ has: five }).click();
    await expect(five).toBeChecked();
    await page.getByLabel('Comment (optional)').fill('Quick and clear.');
    await page.getByRole('button', { name: 'Send rating' }).click();
    await expect(page.getByText('Thank you for your rating!')).toBeVisible();
    await expect(desk.getByText(/Metan: 5 av 5/)).toBeVisible({ timeout: 20_000 });
    await screenshot(desk, 'support-desk-03-closed');
    await deskContext.close();

    // Her list of conversations: this one, closed and rated.
    await page.goto('/menu/skriva-til-okkum');
    await expect(page.getByText(`About order ${spaced(guðrun.ported)}`)).toBeVisible();
    await screenshot(page, 'support-05-list');

    // The saved replies the desk used, as the content role keeps them.
    const { context: editorContext, page: editor } = await atTheDesk(
      browser,
      'content',
      'Goymd svar',
    );
    await expect(editor.getByText('Flyting avvíst: SIM-kortnummarið').first()).toBeVisible();
    await screenshot(editor, 'support-desk-04-saved-replies');
    await editorContext.close();
  });
});
