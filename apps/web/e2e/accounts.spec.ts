import type { Page } from '@playwright/test';
import { loginByEmail, screenshot, watchToasts } from './support/app';
import { spaced } from './support/customer';
import { expect, test, type Person } from './support/fixtures';
import {
  expectFocusVisible,
  expectTextAt200,
  resetTextScale,
  scaleText,
} from './support/accessibility';
import { formatData } from '@alda/contract/format/data';
import { formatDate, todayInFaroe } from '@alda/contract/format/date';
import { postUsage, subscriptionsOf, usageHistoryOf } from './support/usage';

const dataRing = (page: Page, name = 'Data eftir í Føroyum') => page.getByRole('meter', { name });

/** Each journey's own copy of the demo customers (support/fixtures.ts). */
async function signInAs(page: Page, person: Person) {
  await loginByEmail(page, person.email, person.password);
  await expect(page).toHaveURL(/\/(valkomin)?$/);
}

test.describe('accounts: home, family, manage, orders and plans (SPEC §1–§4, §6)', () => {
  test('the owner sees data and family, opens a member and the manage screens', async ({
    page,
    people,
  }) => {
    const { joannes: OWNER, bardur: BEING_ADDED } = people;
    await signInAs(page, OWNER);
    await expect(page).toHaveURL(/\/$/);
    // SPEC §9: GB with 1024 MB; 22,528 MB is the owner's 22 GB this month.
    await expect(dataRing(page)).toHaveAttribute('aria-valuetext', /^[\d,]+ GB eftir av 22 GB$/);
    // The demo seed stamps the usage when the API server started: a run that crosses midnight
    // (Faroese clock) sees that as yesterday's date. "Today" itself is checked after a usage
    // record further on, and in home-screen.test.tsx.
    await expect(
      page.getByText(/^Dagført (í dag|\d\d\.\d\d\.\d{4}) kl\. \d\d:\d\d$/),
    ).toBeVisible();
    const family = page.getByRole('region', { name: 'Familjan' });
    await expect(family.getByRole('link', { name: /Sunneva Joensen/ })).toBeVisible();
    const adding = family.getByRole('link', { name: new RegExp(BEING_ADDED.name) });
    await expect(adding).toContainText('Í gerð');
    await expect(adding).toContainText('kann taka nakrar dagar');
    await expect(page.getByRole('region', { name: 'Uttanlands' })).toContainText('Virkin');
    await screenshot(page, 'accounts-01-home-fo');
    await screenshot(page, 'accounts-01b-home-fo-first-screen', { fullPage: false });

    // A family member (SPEC §2 familju-limur/:id).
    await family.getByRole('link', { name: /Sunneva Joensen/ }).click();
    await expect(page).toHaveURL(/\/familju-limur\/[\w-]+$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeVisible();
    await expect(dataRing(page)).toBeVisible();
    const plan = page.getByRole('region', { name: 'Familjuhald' });
    await expect(plan).toContainText('kr. um mánaðin');
    await expect(plan).toContainText('uttan MVG');
    await screenshot(page, 'accounts-02-family-member');

    // The member being added (SPEC §2 familju-limur/vidgerd/:phoneNumber).
    await page.getByRole('button', { name: 'Aftur' }).click();
    await page
      .getByRole('region', { name: 'Familjan' })
      .getByRole('link', { name: new RegExp(BEING_ADDED.name) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/familju-limur/vidgerd/${BEING_ADDED.number}$`));
    await expect(page.getByText(BEING_ADDED.name)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Soleiðis gongst' })).toBeVisible();
    await screenshot(page, 'accounts-03-member-processing');

    // Manage subscription (SPEC §2 umsit-hald/:phoneNumber).
    await page.getByRole('button', { name: 'Aftur' }).click();
    await page.getByRole('link', { name: 'Umsit haldið' }).click();
    await expect(page).toHaveURL(new RegExp(`/umsit-hald/${OWNER.number}$`));
    await expect(page.getByText('Jóannes Joensen')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Familjuhald' })).toContainText('uttan MVG');
    await screenshot(page, 'accounts-04-manage');

    // Manage family subscription (SPEC §2 umsit-familju-hald).
    await page.getByRole('link', { name: 'Umsit familjuhald' }).click();
    await expect(page).toHaveURL(/\/umsit-familju-hald$/);
    const members = page.getByRole('region', { name: 'Limir' });
    await expect(members).toContainText('Sunneva Joensen');
    await expect(members).toContainText('kann taka nakrar dagar');
    await expect(page.getByRole('region', { name: 'Familjuhald' })).toContainText(
      'Tilsamans um mánaðin',
    );
    await screenshot(page, 'accounts-05-manage-family');
  });

  test('the owner switches between lines and reads orders and plans', async ({ page, people }) => {
    const { joannes: OWNER } = people;
    await signInAs(page, OWNER);
    const tabs = page.getByRole('tablist', { name: 'Tíni nummur' });
    await tabs.getByRole('tab', { name: spaced(OWNER.workLine) }).click();
    await expect(tabs.getByRole('tab', { name: spaced(OWNER.workLine) })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByText(/^Einstaklingahald · /)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Familjan' })).toBeVisible();
    await screenshot(page, 'accounts-06-second-line');

    // The chosen number survives a reload (kept on the device, SPEC §1 start-up loads it).
    await page.reload();
    await expect(tabs.getByRole('tab', { name: spaced(OWNER.workLine) })).toHaveAttribute(
      'aria-selected',
      'true',
    );

    await page.getByRole('link', { name: 'Valmynd' }).click();
    await page.getByRole('link', { name: 'Bíleggingar' }).click();
    await expect(page).toHaveURL(/\/menu\/bilegingar$/);
    const inProgress = page.getByRole('article', { name: 'Nýggjur familjulimur' }).first();
    // Bárður's SIM card was sent home (the demo's provisioning, ADR 0055): the order says so.
    await expect(inProgress).toContainText('Í gerð');
    await expect(inProgress).toContainText('Nú: SIM-kort sent');
    await screenshot(page, 'accounts-07-orders');

    await page.getByRole('button', { name: 'Aftur' }).click();
    await page.getByRole('link', { name: 'Hald og prísir' }).click();
    await expect(page).toHaveURL(/\/menu\/hald$/);
    await expect(page.getByText('Títt hald')).toBeVisible();
    await screenshot(page, 'accounts-08-plans');
  });

  test('text at 200 % and the keyboard on the daily screens, in Faroese and English (issue 16.5: WCAG 1.4.4, 2.4.7, 2.4.11)', async ({
    page,
    people,
  }) => {
    const { joannes: OWNER } = people;
    // Signing in with the text at twice its size and by keyboard only.
    await page.goto('/rita-inn/vid-telduposti');
    await expect(page.getByLabel('Teldupostur')).toBeVisible();
    await scaleText(page, 2);
    await expectTextAt200(page, 'login by e-mail');
    await expectFocusVisible(page, 'login by e-mail');
    await page.getByLabel('Teldupostur').fill(OWNER.email);
    await page.getByLabel('Loyniorð', { exact: true }).fill(OWNER.password);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/$/);
    await expect(dataRing(page)).toHaveAttribute('aria-valuetext', /av 22 GB$/);
    await expectTextAt200(page, 'home');
    await expectFocusVisible(page, 'home', 40);
    await screenshot(page, 'accounts-09a-home-text-200', { fullPage: false });

    // English, still at 200 %: the screens a customer uses every day, reached by tapping.
    await page.getByRole('link', { name: 'Valmynd' }).click();
    await page.getByRole('link', { name: 'Mál' }).click();
    await page.getByRole('radio', { name: 'English' }).check();
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
    await expectTextAt200(page, 'language');
    await page.getByRole('link', { name: 'Home' }).click();
    await expect(dataRing(page, 'Data left in the Faroe Islands')).toHaveAttribute(
      'aria-valuetext',
      /^[\d.]+ GB left of 22 GB$/,
    );
    await expect(page.getByRole('region', { name: 'Your family' })).toContainText('can take days');
    await expectTextAt200(page, 'home in English');
    await page.getByRole('link', { name: 'See your data use' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Data use' })).toBeVisible();
    await expectTextAt200(page, 'usage history');
    await screenshot(page, 'accounts-09c-usage-history-text-200', { fullPage: false });
    await page.getByRole('button', { name: 'Back' }).click();
    await page
      .getByRole('region', { name: 'Your family' })
      .getByRole('link', { name: /Sunneva Joensen/ })
      .click();
    await expect(page.getByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeVisible();
    await expectTextAt200(page, 'family member');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('link', { name: 'Buy package' }).click();
    await expect(page.getByRole('radio').first()).toBeVisible();
    await expectTextAt200(page, 'buy a package');
    await expectFocusVisible(page, 'buy a package');
    await screenshot(page, 'accounts-09d-packages-text-200', { fullPage: false });
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('link', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Monthly price' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Monthly price' })).toBeVisible();
    await expectTextAt200(page, 'monthly price');
    await page.getByRole('link', { name: /My user/ }).click();
    await expect(page.getByRole('switch').first()).toBeVisible();
    await expectTextAt200(page, 'my user');
    await expectFocusVisible(page, 'my user', 40);

    // Back to the normal size: home in English as everyone sees it.
    await resetTextScale(page);
    await page.getByRole('link', { name: 'Home' }).click();
    await screenshot(page, 'accounts-09-home-en');
    await screenshot(page, 'accounts-09b-home-en-first-screen', { fullPage: false });
  });

  test('a family member who is not the owner is sent home from the owner routes (SPEC §2, §6)', async ({
    page,
    people,
  }) => {
    const { joannes: OWNER, sunneva: MEMBER, bardur: BEING_ADDED } = people;
    const own = await subscriptionsOf(page.request, MEMBER.email, MEMBER.password);
    const ownerId = own.currentAccount?.otherMembers[0]?.id;
    expect(ownerId).toBeTruthy();
    await signInAs(page, MEMBER);
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(MEMBER.firstname) }),
    ).toBeVisible();
    await expect(dataRing(page)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Familjan' })).toHaveCount(0);
    for (const path of [
      `/familju-limur/${ownerId}`,
      `/familju-limur/vidgerd/${BEING_ADDED.number}`,
      `/umsit-hald/${OWNER.number}`,
      '/umsit-familju-hald',
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(dataRing(page)).toBeVisible();
    }
    await screenshot(page, 'accounts-10-member-home');
  });

  test('a new customer without lines lands on welcome (SPEC §2)', async ({ page, people }) => {
    const { asa: NEW_CUSTOMER } = people;
    await signInAs(page, NEW_CUSTOMER);
    await expect(page).toHaveURL(/\/valkomin$/);
    await expect(
      page.getByRole('heading', { name: `Vælkomin til Alda, ${NEW_CUSTOMER.firstname}!` }),
    ).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(/\/valkomin$/);
    await screenshot(page, 'accounts-11-welcome');
  });

  test('a usage record posted to the feed changes what home shows after refresh', async ({
    page,
    people,
  }) => {
    const { joannes: OWNER, sunneva: MEMBER } = people;
    // Every script the browser fetches: uPlot must come only with the usage history (ADR 0066).
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const before = await subscriptionsOf(page.request, OWNER.email, OWNER.password);
    const member = before.currentAccount?.currentMember;
    const remaining = member?.dataRemaining.domestic ?? 0;
    // Use exactly enough that 10 GB are left: a figure the screen must then show.
    expect(remaining).toBeGreaterThan(10 * 1024);
    const history = await usageHistoryOf(
      page.request,
      OWNER.email,
      OWNER.password,
      member?.id ?? '',
    );
    const today = history.days.at(-1);
    expect(today?.date).toBe(todayInFaroe());
    await signInAs(page, OWNER);
    const toasts = await watchToasts(page);
    await expect(dataRing(page)).not.toHaveAttribute('aria-valuetext', '10 GB eftir av 22 GB');

    const used = remaining - 10 * 1024;
    await postUsage(page.request, { phoneNumber: `298${OWNER.number}`, usedMb: used });
    await page.reload();
    await expect(dataRing(page)).toHaveAttribute('aria-valuetext', '10 GB eftir av 22 GB');
    await expect(page.getByText(/^Dagført í dag kl\. \d\d:\d\d$/)).toBeVisible();
    await screenshot(page, 'accounts-12-home-after-usage');

    // Issue 16 (ADR 0066): the number's usage history, today's row with the record in it.
    expect(scripts.filter((path) => /uplot/i.test(path))).toEqual([]);
    await page.getByRole('link', { name: 'Sí nýtsluna' }).click();
    await expect(page).toHaveURL(new RegExp(`/nytsla/${member?.id ?? ''}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Nýtsla' })).toBeVisible();
    const days = page.getByRole('region', { name: /^Dag fyri dag í / });
    const table = days.getByRole('table', { name: /^Data brúkt hvønn dag í / });
    const todayRow = table.getByRole('row', { name: new RegExp(`^${formatDate(new Date())}`) });
    await expect(todayRow).toContainText(formatData((today?.domesticMb ?? 0) + used, 'fo'));
    await expect(days.locator('canvas')).toBeVisible();
    expect(scripts.filter((path) => /uplot/i.test(path))).not.toEqual([]);
    const months = page.getByRole('region', { name: 'Seinastu 6 mánaðirnar' });
    await expect(months.getByRole('table').getByRole('row')).toHaveCount(7);
    await expect(months.locator('canvas')).toBeVisible();
    await screenshot(page, 'accounts-13-usage-history');
    await screenshot(page, 'accounts-13b-usage-history-first-screen', { fullPage: false });
    // The tables are there for everyone; sighted users can show them too.
    await days.getByRole('button', { name: 'Vís tølini' }).click();
    await expect(todayRow).toBeVisible();
    await screenshot(page, 'accounts-13c-usage-history-table');

    // Issue 16 (ADR 0066): Sunneva's line passes 80 % (17.8 of 21 GB used in the demo); the
    // owner is told whose line it is, and the alert opens that line's usage history.
    const sunneva = (await subscriptionsOf(page.request, MEMBER.email, MEMBER.password))
      .currentAccount?.currentMember;
    await postUsage(page.request, { phoneNumber: MEMBER.number, usedMb: 50 });
    await page.goto('/frabodanir');
    const alert = page.getByRole('button', {
      name: new RegExp(
        `80 % av datanum er brúkt.*Sunneva Joensen \\(${spaced(MEMBER.number)}\\): 80 % av datanum í hesum mánaði er brúkt\\.`,
      ),
    });
    await expect(alert).toBeVisible();
    await screenshot(page, 'accounts-14-usage-alert', { fullPage: false });
    await alert.click();
    await expect(page).toHaveURL(new RegExp(`/nytsla/${sunneva?.id ?? ''}$`));
    await expect(page.getByText(spaced(MEMBER.number), { exact: true })).toBeVisible();

    // The switches in the profile: 80 % off is kept (it is the server's), then on again.
    await page.getByRole('link', { name: 'Mín brúkari' }).click();
    const at80 = page.getByRole('switch', { name: 'Tá ið 80 % er brúkt' });
    await expect(at80).toBeChecked();
    // By e-mail too is the notification settings' "Datanýtsla" row (issue 64), off by default.
    await expect(
      page.getByRole('group', { name: 'Datanýtsla' }).getByRole('switch', { name: 'Teldupostur' }),
    ).not.toBeChecked();
    await at80.click();
    await toasts.expectShown('Broytingin er goymd.');
    await page.reload();
    await expect(at80).not.toBeChecked();
    await screenshot(page, 'accounts-15-profile-usage-alerts');
    await at80.click();
    await expect(at80).toBeChecked();

    // Issue 16 item 5 (ADR 0067): dark chosen in the menu holds over a reload and a light
    // system; "as on the phone" follows the system again.
    await page.getByRole('link', { name: 'Valmynd' }).click();
    await page.getByRole('link', { name: /Útsjónd/ }).click();
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');
    await page.getByRole('radio', { name: 'Myrk' }).click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('radio', { name: 'Myrk' })).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('radio', { name: 'Sum á telefonini' }).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'accounts-16-appearance');
  });
});
