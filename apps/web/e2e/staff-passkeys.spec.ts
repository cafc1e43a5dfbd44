import { screenshot } from './support/app';
import {
  addVirtualAuthenticator,
  DESK,
  demoStaff,
  openArea,
  signInToConsole,
  totpNow,
} from './support/console';
import { expect, test } from './support/fixtures';

/*
 * Staff passkeys (ADR 0097): a new support member adds a passkey at /console/ and signs in with
 * it; the admin requires passkeys of support, after which the member's TOTP code is refused and
 * the passkey still signs in. The requirement holds for the whole role, so this journey is one of
 * the `global` project's (playwright.config.ts), which run alone after the others.
 */

test.describe('staff passkeys (ADR 0097)', () => {
  test('a new support member adds a passkey and signs in with it; once the admin requires passkeys of support, the code is refused', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    // Requiring passkeys holds for every member of the role, the demo's support member too: this
    // journey runs alone, after the others (the `global` project), and lifts it at the end.
    const role = 'Kundatænasta';

    // The admin, at a desk, adds the member; the enrolment is shown once.
    const deskContext = await browser.newContext({ viewport: DESK, locale: 'fo-FO' });
    const desk = await deskContext.newPage();
    // A journey before this one may have signed the demo admin in with this step's code.
    await signInToConsole(desk, demoStaff('admin'), { stepsAhead: 1 });
    await openArea(desk, 'Starvsfólk');
    const email = `lykil-${Date.now().toString(36)}@staff.alda.fo`;
    const name = 'Rói Lykilsson';
    await desk.getByRole('button', { name: 'Legg starvsfólk afturat' }).click();
    const adding = desk.getByRole('dialog', { name: 'Nýtt starvsfólk' });
    await adding.getByLabel('Teldupostur').fill(email);
    await adding.getByLabel('Navn').fill(name);
    await adding.getByLabel('Leiklutur').selectOption({ label: role });
    await adding.getByRole('button', { name: 'Stovna kontu' }).click();
    const enrolment = desk.getByRole('dialog', { name: `Innritan hjá ${name}` });
    const secret = (
      await enrolment
        .getByRole('region', { name: 'Ella skriva lykilin inn' })
        .locator('p')
        .innerText()
    ).replace(/\s+/g, '');
    const password = await enrolment
      .getByRole('region', { name: 'Fyrsta loyniorð' })
      .locator('p')
      .first()
      .innerText();
    await enrolment.getByRole('button', { name: 'Eg havi handað hetta víðari' }).click();

    // The member, on the console at localhost (WebAuthn takes no IP address), with a platform
    // authenticator: signs in with the code and adds a passkey under "My passkeys".
    const origin = `http://localhost:${new URL(baseURL ?? '').port}`;
    const memberContext = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'fo-FO',
    });
    const member = await memberContext.newPage();
    await addVirtualAuthenticator(member);
    await member.goto(`${origin}/console/`);
    await expect(member.getByRole('heading', { name: 'Rita inn' })).toBeVisible();
    const credentials = async () => {
      await member.getByLabel('Teldupostur').fill(email);
      await member.getByLabel('Loyniorð').fill(password);
    };
    await credentials();
    await member.getByLabel('Kota').fill(await totpNow(secret));
    await member.getByRole('button', { name: 'Rita inn', exact: true }).click();
    await member.getByRole('link', { name: 'Mínar lykilkodur' }).click();
    await expect(member.getByRole('heading', { name: 'Mínar lykilkodur', level: 1 })).toBeVisible();
    await expect(member.getByText('Tú hevur onga lykilkodu enn.')).toBeVisible();
    await screenshot(member, 'console-13-my-passkeys-empty');
    await member.getByRole('button', { name: 'Legg lykilkodu afturat' }).click();
    const add = member.getByRole('dialog', { name: 'Legg lykilkodu afturat' });
    await add.getByLabel('Navn (valfrítt)').fill('Arbeiðstelda');
    await add.getByLabel('Loyniorð').fill(password);
    await add.getByRole('button', { name: 'Legg afturat' }).click();
    await expect(
      member.getByText(
        'Lykilkodan “Arbeiðstelda” er løgd afturat. Nú kanst tú rita inn við henni.',
      ),
    ).toBeVisible();
    await expect(
      member.getByRole('table', { name: 'Mínar lykilkodur' }).getByText('Arbeiðstelda'),
    ).toBeVisible();
    await screenshot(member, 'console-14-my-passkeys');

    // Signed out, the member signs in with e-mail, password and the passkey.
    await member.getByRole('button', { name: 'Rita út', exact: true }).click();
    await expect(member.getByRole('heading', { name: 'Rita inn' })).toBeVisible();
    await credentials();
    await screenshot(member, 'console-15-sign-in-passkey');
    await member.getByRole('button', { name: 'Rita inn við lykilkodu' }).click();
    await expect(member.getByRole('navigation', { name: 'Høvuðsvalmynd' })).toBeVisible();

    // The admin sees the member's passkey, and requires passkeys of the role — after being told
    // how many of its members have none.
    await expect(desk.getByRole('button', { name: `1 lykilkoda hjá ${name}` })).toBeVisible({
      timeout: 15_000,
    });
    const requirement = desk.getByRole('switch', { name: `Krev lykilkodu: ${role}` });
    await expect(requirement).toHaveAttribute('aria-checked', 'false');
    await requirement.click();
    const confirm = desk.getByRole('dialog', { name: `Krev lykilkodu: ${role}` });
    await expect(confirm.getByText(/av \d+ limum (hevur|hava) onga lykilkodu/)).toBeVisible();
    await confirm.getByLabel('Orsøk').fill('Mál 5150: lykilkodur til kundatænastuna');
    // The dialog as the admin sees it (the page under it scrolled): the viewport, not the page.
    await screenshot(desk, 'console-16-require-passkey', { fullPage: false });
    await confirm.getByRole('button', { name: 'Krev lykilkodu' }).click();
    await expect(desk.getByText(`${role} ritar nú inn við lykilkodu.`)).toBeVisible();
    await expect(requirement).toHaveAttribute('aria-checked', 'true');

    // The member's code is refused with the reason; the passkey still signs in.
    await member.getByRole('button', { name: 'Rita út', exact: true }).click();
    await credentials();
    await member.getByLabel('Kota').fill(await totpNow(secret));
    await member.getByRole('button', { name: 'Rita inn', exact: true }).click();
    await expect(member.getByRole('alert')).toContainText(
      'Tín leiklutur ritar inn við lykilkodu. Kotur úr appinum verða ikki góðtiknar longur.',
    );
    await screenshot(member, 'console-17-passkey-required');
    await member.getByRole('button', { name: 'Rita inn við lykilkodu' }).click();
    await expect(member.getByRole('navigation', { name: 'Høvuðsvalmynd' })).toBeVisible();

    // The admin lifts the requirement again.
    await requirement.click();
    const lift = desk.getByRole('dialog', { name: `Tak kravið um lykilkodu burtur: ${role}` });
    await lift.getByLabel('Orsøk').fill('Mál 5150: roynd liðug');
    await lift.getByRole('button', { name: 'Tak kravið burtur' }).click();
    await expect(requirement).toHaveAttribute('aria-checked', 'false');

    await memberContext.close();
    await deskContext.close();
  });
});
