import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok, type Handler } from '@/test/fake-api';
import { demoUser, noSubscriptions } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const tokens = { accessToken: 'a-new', refreshToken: 'r-new', expiresIn: 900 };

type Locale = 'fo' | 'en';
const L = {
  fo: {
    firstname: 'Fornavn',
    lastname: 'Eftirnavn',
    email: 'Teldupostur',
    phone: 'Telefonnummar',
    birthDate: 'Føðingardagur',
    address: 'Bústaður',
    postCode: 'Postnummar',
    city: 'Bygd ella býur',
    password: 'Loyniorð',
    repeat: 'Endurtak loyniorðið',
    submit: 'Stovna brúkara',
  },
  en: {
    firstname: 'First name',
    lastname: 'Last name',
    email: 'Email',
    phone: 'Phone number',
    birthDate: 'Date of birth',
    address: 'Address',
    postCode: 'Postal code',
    city: 'Town or village',
    password: 'Password',
    repeat: 'Repeat the password',
    submit: 'Create user',
  },
} as const;

async function setup(api: Record<string, Handler> = {}, locale: Locale = 'fo') {
  const app = await renderApp({ initialEntries: ['/stovna-brukara'], api, locale });
  await screen.findByRole('heading', { level: 2 });
  return { ...app, user: userEvent.setup() };
}

const field = (label: string) =>
  screen.getByLabelText<HTMLInputElement>(label, { selector: 'input' });

/** Fills the whole form with a valid adult in Klaksvík. */
async function fillValid(
  user: ReturnType<typeof userEvent.setup>,
  locale: Locale = 'fo',
  overrides: Partial<Record<keyof (typeof L)['fo'], string>> = {},
) {
  const l = L[locale];
  const values = {
    firstname: 'Rannvá',
    lastname: 'Joensen',
    email: 'Rannva@Example.fo',
    phone: '+298 21 43 65',
    birthDate: '12041988',
    address: 'Biskupsstøðgøta 5',
    postCode: '700',
    password: 'Loyniord-1',
    repeat: 'Loyniord-1',
    ...overrides,
  };
  for (const [key, value] of Object.entries(values) as [keyof typeof values, string][]) {
    await user.type(field(l[key]), value);
  }
}

describe('register (SPEC §2 register, §5)', () => {
  it('sends the normalised form, signs the new user in and goes to welcome (SPEC §1, §4)', async () => {
    const { user, api, router, storage } = await setup({
      'POST /auth/register': () => ok(tokens),
      'GET /auth/me': (req) =>
        req.headers.authorization === 'Bearer a-new' ? ok(demoUser) : fail(401, 'UNAUTHORIZED'),
      'GET /subscriptions': () => ok(noSubscriptions),
      'GET /orders': () => ok([]),
    });
    await fillValid(user);
    // Typing a postal code with one place fills in the place (SPEC §3 locality list).
    expect(field('Bygd ella býur').value).toBe('Klaksvík');
    expect(field('Føðingardagur').value).toBe('12.04.1988');
    await user.click(screen.getByRole('button', { name: 'Stovna brúkara' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/valkomin'));
    expect(api.callsTo('POST /auth/register')[0]?.body).toEqual({
      // The device it signs in from (ADR 0059).
      device: expect.objectContaining({ platform: 'web' }),
      firstname: 'Rannvá',
      lastname: 'Joensen',
      email: 'rannva@example.fo',
      phoneNumber: '214365',
      birthDate: '12.04.1988',
      address: 'Biskupsstøðgøta 5',
      postCode: '700',
      city: 'Klaksvík',
      password: 'Loyniord-1',
      passwordRepeat: 'Loyniord-1',
    });
    expect(await storage.get('accessToken')).toBe('a-new');
    expect(await screen.findByRole('heading', { name: 'Vælkomin til Alda, Rannvá!' })).toBeTruthy();
    // Signed in with a new password: a passkey is offered for next time (ADR 0097).
    expect(sessionStorage.getItem('alda.passkeyOffer')).toMatch(
      new RegExp(`^${demoUser.id} \\d+$`),
    );
    // No unsaved-changes question after a successful registration.
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('checks the fields as they are typed, with the SPEC §5 messages', async () => {
    const { user, api } = await setup({}, 'en');
    await user.type(field('Email'), 'rannva@');
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    await user.type(field('Phone number'), '12345');
    expect(await screen.findByText('The phone number must be 6 digits.')).toBeTruthy();
    await user.type(field('Date of birth'), '31021990');
    expect(await screen.findByText('Enter a valid date (dd.mm.yyyy).')).toBeTruthy();
    await user.type(field('Postal code'), '999');
    expect(
      await screen.findByText('Postal code: This postal code does not exist in the Faroe Islands.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    expect((await screen.findAllByText('This is a required field')).length).toBeGreaterThan(0);
    expect(api.callsTo('POST /auth/register')).toHaveLength(0);
  });

  it.each([
    ['fo', 'Tú ert undir aldursmarkinum. Foreldur ella verji mugu stovna brúkaran fyri teg.'],
    ['en', 'You are under the age limit. A parent or guardian must register for you.'],
  ] as const)(
    '%s: says a parent or guardian must register for someone too young, and sends nothing (SPEC §5)',
    async (locale, message) => {
      const { user, api } = await setup({}, locale);
      const tenYearsAgo = new Date();
      tenYearsAgo.setFullYear(tenYearsAgo.getFullYear() - 10);
      const typed = `01.01.${tenYearsAgo.getFullYear()}`;
      await fillValid(user, locale, { birthDate: typed });
      expect(await screen.findByText(message)).toBeTruthy();
      await user.click(screen.getByRole('button', { name: L[locale].submit }));
      expect(api.callsTo('POST /auth/register')).toHaveLength(0);
    },
  );

  it('explains a refusal for age from the server too (TOO_YOUNG, SPEC §5)', async () => {
    const { user } = await setup({ 'POST /auth/register': () => fail(422, 'TOO_YOUNG') }, 'en');
    await fillValid(user, 'en');
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('A parent or guardian must register')).toBeTruthy();
    expect(field('Date of birth').getAttribute('aria-invalid')).toBe('true');
  });

  it.each([
    ['fo', 'Teldupostadressan er longu skrásett.', 'Gloymt loyniorðið? Fá eitt nýtt'],
    ['en', 'The email is already registered', 'Forgot your password? Get a new one'],
  ] as const)(
    '%s: offers a password reset when the e-mail is already registered (SPEC §8 Registration)',
    async (locale, message, linkName) => {
      const { user, router } = await setup(
        { 'POST /auth/register': () => fail(409, 'EMAIL_ALREADY_REGISTERED', 'server text') },
        locale,
      );
      await fillValid(user, locale);
      await user.click(screen.getByRole('button', { name: L[locale].submit }));
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toContain(message);
      // Nothing is lost: the form still holds what was typed.
      expect(field(L[locale].firstname).value).toBe('Rannvá');
      await user.click(within(alert).getByRole('link', { name: linkName }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/gloymt-loyniord'));
      // The address travels along, and leaving did not ask about unsaved changes.
      expect(field(L[locale].email).value).toBe('Rannva@Example.fo');
      expect(screen.queryByRole('dialog')).toBeNull();
    },
  );

  it('marks the phone number when it already has a user (PHONE_ALREADY_REGISTERED)', async () => {
    const { user } = await setup({
      'POST /auth/register': () => fail(409, 'PHONE_ALREADY_REGISTERED'),
    });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Stovna brúkara' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Telefonnummarið er longu skrásett.');
    expect(within(alert).getByRole('link').getAttribute('href')).toBe(
      '/rita-inn/vid-telefonnummari',
    );
    expect(field('Telefonnummar').getAttribute('aria-invalid')).toBe('true');
  });

  it('asks before leaving a form with unsaved changes (SPEC §5)', async () => {
    const { user, router } = await setup();
    await user.type(field('Fornavn'), 'Rannvá');
    await user.click(screen.getByRole('button', { name: 'Aftur' }));
    expect(
      await screen.findByRole('dialog', { name: 'Broytingarnar eru ikki goymdar' }),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Verð verandi' }));
    expect(router.state.location.pathname).toBe('/stovna-brukara');
    expect(field('Fornavn').value).toBe('Rannvá');
  });
});

describe('locality picker (SPEC §3 "Locality reference list")', () => {
  it('offers every place of a shared postal code and fills in the one picked', async () => {
    const { user } = await setup();
    await user.type(field('Postnummar'), '485');
    const group = await screen.findByRole('radiogroup', {
      name: /Fleiri bygdir hava postnummarið 485/,
    });
    const options = within(group).getAllByRole('radio');
    expect(options.map((o) => o.textContent)).toEqual(['Skálabotnur', 'Skálafjørður']);
    expect(field('Bygd ella býur').value).toBe('');
    await user.click(within(group).getByRole('radio', { name: 'Skálafjørður' }));
    expect(field('Bygd ella býur').value).toBe('Skálafjørður');
    expect(
      within(group).getByRole('radio', { name: 'Skálafjørður' }).getAttribute('aria-checked'),
    ).toBe('true');
  });

  it('finds places by name, accent-blind, and fills in both fields', async () => {
    const { user } = await setup();
    const city = field('Bygd ella býur');
    await user.type(city, 'torsh');
    const listbox = await screen.findByRole('listbox');
    await user.click(within(listbox).getByRole('option', { name: /Tórshavn/ }));
    expect(city.value).toBe('Tórshavn');
    expect(field('Postnummar').value).toBe('100');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('picks a suggestion with the keyboard', async () => {
    const { user } = await setup();
    const city = field('Bygd ella býur');
    await user.type(city, 'Klaksv');
    expect(city.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(city.value).toBe('Klaksvík');
    expect(field('Postnummar').value).toBe('700');
  });

  it('tidies a name typed in full to the list’s spelling when leaving the field', async () => {
    const { user } = await setup();
    await user.type(field('Postnummar'), '900');
    const city = field('Bygd ella býur');
    expect(city.value).toBe('Vágur');
    await user.clear(city);
    await user.type(city, 'vagur');
    await user.tab();
    expect(city.value).toBe('Vágur');
  });

  it('says when the place does not have that postal code (CITY_POSTCODE_MISMATCH)', async () => {
    const { user } = await setup();
    await user.type(field('Postnummar'), '100');
    const city = field('Bygd ella býur');
    await user.clear(city);
    await user.type(city, 'Klaksvík');
    await user.tab();
    expect(
      await screen.findByText('Bygd ella býur: Hesin staðurin hevur ikki hetta postnummarið.'),
    ).toBeTruthy();
  });

  it('drops the mismatch message as soon as a fitting place is picked (no stale message)', async () => {
    const { user } = await setup();
    await user.type(field('Postnummar'), '100');
    const city = field('Bygd ella býur');
    await user.clear(city);
    await user.type(city, 'klaks');
    const mismatch = 'Bygd ella býur: Hesin staðurin hevur ikki hetta postnummarið.';
    expect(await screen.findByText(mismatch)).toBeTruthy();
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: /Klaksvík/ }));
    await waitFor(() => expect(screen.queryByText(mismatch)).toBeNull());
    expect(document.activeElement).toBe(city);
    expect(field('Postnummar').value).toBe('700');
  });
});
