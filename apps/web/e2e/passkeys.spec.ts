import type { CDPSession, Page } from '@playwright/test';
import { chooseLanguage, screenshot, watchToasts } from './support/app';
import { expect, test } from './support/fixtures';

/*
 * Passkeys (ADR 0097) in Chromium with a virtual authenticator of the DevTools protocol: a
 * platform authenticator (`internal`) that keeps discoverable credentials, verifies the user and
 * answers every ceremony by itself, as a phone does after a fingerprint.
 *
 * WebAuthn refuses an IP address as the relying party's ID, so this journey opens the app at
 * `localhost` — the same server as the other journeys' 127.0.0.1, on the port of the configured
 * baseURL (playwright.config.ts sets WEBAUTHN_RP_ID=localhost and WEBAUTHN_ORIGINS to match).
 * Every page.goto, and the demo copy's request, go there.
 */
test.use({
  baseURL: async ({ baseURL }, use) => {
    const url = new URL(baseURL ?? 'http://127.0.0.1:3210');
    url.hostname = 'localhost';
    await use(url.origin);
  },
});

/** A virtual platform authenticator for `page` (Chromium's DevTools protocol). */
async function addAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * Records the `mediation` of every `navigator.credentials.get()` the app makes, and passes the
 * call on unchanged: which of the two sign-ins with a passkey answered — the e-mail field's
 * autofill (`conditional`) or the button (none given, the browser's dialog).
 */
async function recordPasskeyRequests(page: Page) {
  await page.addInitScript(() => {
    const requests: (string | null)[] = [];
    Object.assign(window, { __passkeyRequests: requests });
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      requests.push(options?.mediation ?? null);
      return get(options);
    };
  });
  return () =>
    page.evaluate(
      () => (window as unknown as { __passkeyRequests: (string | null)[] }).__passkeyRequests,
    );
}

/** The login screen once the app has started (the prerendered one has its buttons disabled). */
async function openLogin(page: Page) {
  await page.goto('/rita-inn');
  await expect(page.getByRole('radio', { name: 'Føroyskt' })).toBeEnabled();
}

async function signOut(page: Page, labels = { profile: 'Mín brúkari', logout: 'Rita út' }) {
  await page.getByRole('link', { name: labels.profile }).click();
  await page.getByRole('button', { name: labels.logout }).click();
  await page.getByRole('dialog').getByRole('button', { name: labels.logout }).click();
  await expect(page).toHaveURL(/\/rita-inn$/);
}

test.describe('passkeys (ADR 0097)', () => {
  test('Rói makes a passkey from the offer after his password sign-in, renames it, signs in with it from the autofill and the button, deletes it with his password, and the passkey left on the device is refused', async ({
    page,
    people: { roi },
  }) => {
    const toasts = await watchToasts(page);
    const passkeyRequests = await recordPasskeyRequests(page);
    const { cdp, authenticatorId } = await addAuthenticator(page);

    // The login screen offers a passkey next to the phone and the e-mail.
    await openLogin(page);
    const passkeyButton = page.getByRole('button', { name: /Við lykilkodu/ });
    await expect(passkeyButton).toBeEnabled();
    await screenshot(page, 'pk-01-chooser');

    // A password sign-in; home then offers a passkey for next time. The e-mail field offers the
    // device's passkeys among its suggestions (none yet).
    await page.getByRole('link', { name: /Við teldupostinum/ }).click();
    const email = page.getByLabel('Teldupostur');
    await expect(email).toHaveAttribute('autocomplete', 'username webauthn');
    await email.fill(roi.email);
    await page.getByLabel('Loyniorð', { exact: true }).fill(roi.password);
    await page.getByRole('button', { name: 'Rita inn' }).click();
    await expect(page).toHaveURL(/\/$/);
    const offer = page.getByRole('region', { name: 'Rita skjótari inn næstu ferð?' });
    await expect(offer).toBeVisible();
    await screenshot(page, 'pk-02-offer');
    // Accepted: no password again (the sign-in is fresh), the authenticator makes the passkey.
    await offer.getByRole('button', { name: 'Stovna lykilkodu' }).click();
    await toasts.expectShown('Lykilkodan er stovnað. Næstu ferð kanst tú rita inn við henni.');
    await expect(offer).toBeHidden();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);

    // The profile lists it, named after this device and browser.
    await page.getByRole('link', { name: 'Mín brúkari' }).click();
    await page.getByRole('link', { name: 'Lykilkodur' }).click();
    await expect(page).toHaveURL(/\/min-brukari\/lykilkodur$/);
    const made = page.getByRole('listitem', { name: 'Pixel 7 (Chrome)' });
    await expect(made).toContainText(/Stovnað \d\d\.\d\d\.\d{4} \d\d:\d\d/);
    await expect(made).toContainText('Enn ikki brúkt');
    await screenshot(page, 'pk-03-passkeys');

    // Renamed: the contract's rule first, then the new name.
    await made.getByRole('button', { name: 'Broyt navn: Pixel 7 (Chrome)' }).click();
    const rename = page.getByRole('dialog', { name: 'Broyt navn á lykilkoduni' });
    const name = rename.getByLabel('Navn');
    await name.fill('');
    await rename.getByRole('button', { name: 'Goym' }).click();
    await expect(rename.getByText('Hetta er eitt kravt felt')).toBeVisible();
    await name.fill('Telefonin hjá Róa');
    await rename.getByRole('button', { name: 'Goym' }).click();
    await toasts.expectShown('Navnið er broytt.');
    const renamed = page.getByRole('listitem', { name: 'Telefonin hjá Róa' });
    await expect(renamed).toBeVisible();

    // Signed out, he signs in from the e-mail field's autofill: the screen asks for a passkey
    // with conditional mediation once it is up, and the passkey chosen signs in. (Headless
    // Chromium shows no suggestions; its virtual authenticator answers a conditional request
    // with its credential at once, as if it had been picked, so the journey cannot pick it.)
    await page.getByRole('button', { name: 'Aftur', exact: true }).click();
    await expect(page).toHaveURL(/\/min-brukari$/);
    await signOut(page);
    const passwordSignIns: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/email-login')) passwordSignIns.push(request.url());
    });
    const autofillSignIn = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/api/auth/passkey-login'),
    );
    await page.goto('/rita-inn/vid-telduposti');
    await autofillSignIn;
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(roi.firstname).first()).toBeVisible();
    expect(await passkeyRequests()).toEqual(['conditional']);
    expect(passwordSignIns).toEqual([]);

    // Signed out again, in English, he signs in with the login screen's button.
    await signOut(page);
    await openLogin(page);
    await chooseLanguage(page, 'English');
    const passkeyButtonEn = page.getByRole('button', { name: /With a passkey/ });
    await expect(passkeyButtonEn).toBeEnabled();
    await screenshot(page, 'pk-04-chooser-en');
    await passkeyButtonEn.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText(roi.firstname).first()).toBeVisible();
    // The button's request is the browser's own dialog, not the autofill.
    expect(await passkeyRequests()).toEqual([null]);

    // Used twice now; deleted with his password.
    await page.getByRole('link', { name: 'My user' }).click();
    await page.getByRole('link', { name: 'Passkeys' }).click();
    const used = page.getByRole('listitem', { name: 'Telefonin hjá Róa' });
    await expect(used).toContainText(/Last used \d\d\.\d\d\.\d{4} \d\d:\d\d/);
    await screenshot(page, 'pk-05-passkeys-en');
    await used.getByRole('button', { name: 'Delete: Telefonin hjá Róa' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Telefonin hjá Róa?' });
    await confirm.getByLabel('Password').fill(roi.password);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toasts.expectShown('The passkey is deleted.');
    await expect(page.getByRole('heading', { name: 'No passkeys yet' })).toBeVisible();
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(page).toHaveURL(/\/min-brukari$/);

    // The authenticator still holds it, but the sign-in with it is refused.
    const left = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(left.credentials).toHaveLength(1);
    await signOut(page, { profile: 'My user', logout: 'Log out' });
    await expect(page.getByRole('radio', { name: 'English' })).toBeEnabled();
    await page.getByRole('button', { name: /With a passkey/ }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'We do not recognise this passkey. Sign in another way.',
    );
    await expect(page).toHaveURL(/\/rita-inn$/);
  });
});
