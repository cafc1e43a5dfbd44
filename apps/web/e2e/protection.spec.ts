import type { APIRequestContext } from '@playwright/test';
import { strFromU8, unzipSync } from 'fflate';
import { screenshot, signIn } from './support/app';
import { expect, test } from './support/fixtures';
import { outbox } from './support/outbox';

/*
 * Number protection (issue 32, ADR 0076). Jóannes (his own demo copy) locks his work number; the
 * other provider's port-out is refused; he asks to unlock with his password, sees the
 * notification and the e-mail, and cancels by the e-mail's link; he unlocks again and, after the
 * cooling-off (24 h, which the journey ends once it has seen the waiting state: demo mode's
 * POST /dev/number-unlocks), makes a port-out code, with which the other
 * provider's port-out goes through and the number leaves after the provisioning step. Then he
 * downloads his data as a ZIP.
 */

/** The other provider (the demo's simulated one) asks for a number with a code. */
async function portOut(request: APIRequestContext, phoneNumber: string, code: string) {
  const answer = await request.post('/dev/port-out', {
    data: { phoneNumber, code, provider: 'Annað felag' },
  });
  return { status: answer.status(), body: (await answer.json()) as Record<string, unknown> };
}

test.describe('number protection (issue 32, ADR 0076)', () => {
  test('a customer locks a number, a port-out is refused, an unlock is cancelled by the e-mail link, then unlocked the number moves with a port-out code; and the customer downloads their data', async ({
    page,
    people,
  }) => {
    test.setTimeout(150_000);
    const { joannes } = people;
    const line = joannes.workLine;
    await signIn(page, joannes);

    // The manage screen shows the lock's state and opens its screen.
    await page.goto(`/umsit-hald/${line}`);
    const row = page.getByRole('link', { name: /Nummarlás/ });
    await expect(row).toContainText('Ólæst');
    await row.click();
    await expect(page).toHaveURL(/\/nummarlas\/[\w-]+$/);
    const lockScreen = new URL(page.url()).pathname;
    await expect(page.getByRole('button', { name: 'Læs nú' })).toBeVisible();
    await screenshot(page, 'protection-01-unlocked');

    // Lock: at once.
    await page.getByRole('button', { name: 'Læs nú' }).click();
    await expect(
      page.getByText('Flyting til annað felag og SIM-skifti verða noktað.'),
    ).toBeVisible();
    await screenshot(page, 'protection-02-locked');

    // A code can be made while locked, but the other provider's port-out with it is refused
    // while the number is locked — and the attempt is in the activity log.
    await page.getByRole('button', { name: 'Ger flytikodu' }).click();
    const firstCode = (await page.getByTestId('port-out-code').textContent()) ?? '';
    expect(firstCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{3}-[0-9A-Z]{3}$/);
    const refused = await portOut(page.request, line, firstCode);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain('NUMBER_LOCKED');
    await page.goto('/menu/virksemi');
    await expect(
      page
        .getByText('Umbøn frá Annað felag um at flyta nummarið er avvíst: nummarið er læst')
        .first(),
    ).toBeVisible();
    await page.goto(lockScreen);

    // Unlock: the password again; it waits the server's cooling-off (NUMBER_UNLOCK_DELAY_H, 24 h).
    await page.getByRole('button', { name: 'Lat upp' }).click();
    const dialog = page.getByRole('dialog', { name: 'Lat nummarið upp?' });
    await expect(dialog.getByText(/eftir 24 tímar\./)).toBeVisible();
    await dialog.getByLabel('Loyniorð', { exact: true }).fill(joannes.password);
    await dialog.getByRole('button', { name: 'Lat upp' }).click();
    await expect(
      page.getByText(/^Nummarið verður latið upp kl\. \d\d:\d\d tann \d\d\.\d\d\. Til tá/),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Steðga upplæsing' })).toBeVisible();

    // The in-app notification and the e-mail with the one-tap cancel.
    await page.goto('/frabodanir');
    await expect(page.getByText('Nummarið verður latið upp').first()).toBeVisible();
    let cancelLink = '';
    await expect
      .poll(
        async () => {
          for (const message of await outbox(page, joannes.email)) {
            const found = /https?:\/\/\S+\/nummarlas-stedga\?token=[^\s"<]+/.exec(message.text);
            if (found) {
              const url = new URL(found[0]);
              cancelLink = `${url.pathname}${url.search}`;
              return true;
            }
          }
          return false;
        },
        { message: 'the unlock e-mail', timeout: 10_000 },
      )
      .toBe(true);

    // The e-mail's link: one button, then the number stays locked.
    await page.goto(cancelLink);
    await page.getByRole('button', { name: 'Steðga upplæsingini' }).click();
    await expect(page.getByText('Nummarið er enn læst')).toBeVisible();
    await screenshot(page, 'protection-03-cancelled-by-link');
    await page.goto(lockScreen);
    await expect(
      page.getByText('Flyting til annað felag og SIM-skifti verða noktað.'),
    ).toBeVisible();

    // Unlock again, and let the cooling-off pass: the demo ends it in a few seconds, and the
    // screen, opened again, turns to unlocked by itself when that time comes.
    await page.getByRole('button', { name: 'Lat upp' }).click();
    await dialog.getByLabel('Loyniorð', { exact: true }).fill(joannes.password);
    await dialog.getByRole('button', { name: 'Lat upp' }).click();
    await expect(page.getByRole('button', { name: 'Steðga upplæsing' })).toBeVisible();
    await screenshot(page, 'protection-04-unlocking');
    const ended = await page.request.post('/dev/number-unlocks', {
      data: { phoneNumber: line, inSeconds: 5 },
    });
    expect(ended.status(), await ended.text()).toBe(200);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Læs nú' })).toBeVisible({ timeout: 20_000 });

    // A new port-out code (it voids the first), shown once; with it the port-out goes through.
    await page.getByRole('button', { name: 'Ger nýggja flytikodu' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ger nýggja', exact: true }).click();
    const shown = page.getByTestId('port-out-code');
    await expect(shown).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{3}-[0-9A-Z]{3}$/);
    const code = (await shown.textContent()) ?? '';
    expect(code).not.toBe(firstCode);
    await expect(page.getByText(/virkar í 30 dagar/)).toBeVisible();
    await screenshot(page, 'protection-05-port-out-code');
    const accepted = await portOut(page.request, line, code);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);

    // The customer is told it moves; the order says where it went.
    await page.goto('/frabodanir');
    await expect(page.getByText('Nummarið verður flutt').first()).toBeVisible();
    await page.goto('/menu/bilegingar');
    await expect(
      page.getByRole('article', { name: 'Flutt til annað felag' }).first(),
    ).toBeVisible();

    // After the provisioning step the number has left: no longer among his numbers.
    await expect(async () => {
      await page.goto(`/umsit-hald/${line}`);
      await expect(page.getByText('Nummarið finst ikki')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 40_000 });

    // Download my data: asked for, prepared, then the ZIP.
    await page.goto('/min-brukari');
    const exportCard = page.getByRole('region', { name: 'Tak tínar dátur niður' });
    await exportCard.getByRole('button', { name: 'Bið um tínar dátur' }).click();
    const download = exportCard.getByRole('link', { name: 'Tak niður (ZIP)' });
    await expect(download).toBeVisible({ timeout: 40_000 });
    await exportCard.scrollIntoViewIfNeeded();
    await screenshot(page, 'protection-06-data-export-ready');
    const href = (await download.getAttribute('href')) ?? '';
    const zip = await page.request.get(href);
    expect(zip.status()).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.body()));
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(['README.md', 'profile.json']));
    const profile = JSON.parse(strFromU8(entries['profile.json']!)) as unknown;
    expect(JSON.stringify(profile)).toContain(joannes.email);
  });
});
