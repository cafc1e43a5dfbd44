import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RESEND_CODE_COUNTDOWN_S } from '@alda/contract/constants';
import { fail, json, ok, type Handler } from '@/test/fake-api';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const tokens = { accessToken: 'a-pin', refreshToken: 'r-pin', expiresIn: 900 };
const pinSent = { expiresIn: 600, resendAfter: RESEND_CODE_COUNTDOWN_S };

async function setup(api: Record<string, Handler> = {}, locale: 'fo' | 'en' = 'fo') {
  const app = await renderApp({
    initialEntries: ['/rita-inn/vid-telefonnummari'],
    api: { 'POST /auth/request-pin': () => ok(pinSent), ...api },
    locale,
  });
  await screen.findByRole('heading', { level: 2 });
  // The countdown needs fake time; advanceTimers keeps user-event's own delays moving.
  const user = userEvent.setup({
    advanceTimers: (ms) => {
      if (vi.isFakeTimers()) vi.advanceTimersByTime(ms);
    },
  });
  return { ...app, user };
}

const phoneLabel = { fo: 'Telefonnummar', en: 'Phone number' } as const;
const sendLabel = { fo: 'Send kotu', en: 'Send code' } as const;

async function requestCode(
  user: ReturnType<typeof userEvent.setup>,
  typed = '211234',
  locale: 'fo' | 'en' = 'fo',
) {
  await user.type(screen.getByLabelText(phoneLabel[locale]), typed);
  await user.click(screen.getByRole('button', { name: sendLabel[locale] }));
}

describe('login by phone: the number (SPEC §2 login.number)', () => {
  it.each([
    ['+298 21 12 34', '+298'],
    ['00298211234', '00298'],
    ['21 12 34', 'spaces'],
  ])('accepts %s (%s) and sends the 6 digits (SPEC §5)', async (typed) => {
    const { user, api, router } = await setup();
    await requestCode(user, typed);
    await waitFor(() => expect(router.state.location.pathname).toBe('/rita-inn/pin'));
    expect(api.callsTo('POST /auth/request-pin')[0]?.body).toEqual({ phoneNumber: '211234' });
    expect(await screen.findByText(/til 21 12 34/)).toBeTruthy();
  });

  it('says a number must be 6 digits while it is typed, and sends nothing (SPEC §5)', async () => {
    const { user, api } = await setup();
    await user.type(screen.getByLabelText('Telefonnummar'), '2112');
    expect(await screen.findByText('Telefonnummarið skal vera seks tøl.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send kotu' }));
    expect(api.callsTo('POST /auth/request-pin')).toHaveLength(0);
    await user.type(screen.getByLabelText('Telefonnummar'), '34');
    await waitFor(() =>
      expect(screen.queryByText('Telefonnummarið skal vera seks tøl.')).toBeNull(),
    );
  });

  it.each([
    ['fo', 404, 'PHONE_NOT_REGISTERED', 'Telefonnummarið er ikki skrásett.'],
    ['en', 404, 'PHONE_NOT_REGISTERED', 'The phone number is not registered'],
    ['fo', 409, 'PHONE_PROCESSING', 'Telefonnummarið verður enn viðgjørt.'],
    ['en', 409, 'PHONE_PROCESSING', 'Phone number is still being processed'],
    // The SMSC did not take the code within SMS_CODE_WAIT_S (issue 43): said at once.
    ['fo', 503, 'SMS_NOT_SENT', "Vit fingu ikki sent SMS'ið. Royn aftur seinni."],
    ['en', 503, 'SMS_NOT_SENT', 'We could not send the text message. Please try again later.'],
  ] as const)(
    '%s: shows %s %s as "%s" (SPEC §8 Phone login)',
    async (locale, status, code, message) => {
      const { user, router } = await setup(
        { 'POST /auth/request-pin': () => fail(status, code, 'server text') },
        locale,
      );
      await requestCode(user, '211234', locale);
      expect((await screen.findByRole('alert')).textContent).toContain(message);
      // Nothing is lost: the number stays, and the user stays on the screen.
      expect(screen.getByLabelText<HTMLInputElement>(phoneLabel[locale]).value).toBe('211234');
      expect(router.state.location.pathname).toBe('/rita-inn/vid-telefonnummari');
    },
  );

  it('offers e-mail login and registration for a number that is not registered (SPEC §8)', async () => {
    const { user } = await setup({
      'POST /auth/request-pin': () => fail(404, 'PHONE_NOT_REGISTERED'),
    });
    await requestCode(user);
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('a[href="/stovna-brukara"]')).toBeTruthy();
    expect(alert.querySelector('a[href="/rita-inn/vid-telduposti"]')).toBeTruthy();
  });
});

describe('login by phone: the code (SPEC §2 login.pin)', () => {
  it('counts down 60 s before a new code can be asked for, then resends (SPEC §9)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, api } = await setup();
    await requestCode(user);
    const resend = await screen.findByRole('button', { name: 'Send nýggja kotu' });
    const countdown = screen.getByTestId('resend-countdown');
    expect(countdown.textContent).toContain('1:00');
    expect(resend).toHaveProperty('disabled', true);

    await act(async () => vi.advanceTimersByTime(30_000));
    expect(countdown.textContent).toMatch(/0:(30|29)/);
    expect(resend).toHaveProperty('disabled', true);

    await act(async () => vi.advanceTimersByTime(30_500));
    expect(countdown.textContent).toBe('Tú kanst biðja um eina nýggja kotu nú.');
    expect(resend).toHaveProperty('disabled', false);

    await user.click(resend);
    expect(await screen.findByText('Vit hava sent tær eina nýggja kotu.')).toBeTruthy();
    expect(api.callsTo('POST /auth/request-pin')).toHaveLength(2);
    expect(api.callsTo('POST /auth/request-pin')[1]?.body).toEqual({ phoneNumber: '211234' });
    await waitFor(() => expect(countdown.textContent).toContain('1:00'));
    expect(resend).toHaveProperty('disabled', true);
  });

  it('counts down what the server says when a resend comes too early (PIN_RESEND_TOO_SOON)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user, api } = await setup({
      'POST /auth/request-pin': () => ok({ ...pinSent, resendAfter: 0 }),
    });
    await requestCode(user, '211234', 'fo');
    const resend = await screen.findByRole('button', { name: 'Send nýggja kotu' });
    await waitFor(() => expect(resend).toHaveProperty('disabled', false));
    api.on('POST /auth/request-pin', () =>
      json(429, { error: { code: 'PIN_RESEND_TOO_SOON', message: 'x', retryAfter: 42 } }),
    );
    await user.click(resend);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Bíða eina løtu, áðrenn tú biður um eina nýggja kotu.',
    );
    await waitFor(() =>
      expect(screen.getByTestId('resend-countdown').textContent).toMatch(/0:4[12]/),
    );
    expect(resend).toHaveProperty('disabled', true);
  });

  it.each([
    ['fo', 'Send nýggja kotu', "Vit fingu ikki sent SMS'ið. Royn aftur seinni."],
    ['en', 'Send a new code', 'We could not send the text message. Please try again later.'],
  ] as const)(
    '%s: says so when a new code could not be sent (SMS_NOT_SENT, issue 43)',
    async (locale, resendLabel, message) => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      const { user, api } = await setup(
        { 'POST /auth/request-pin': () => ok({ ...pinSent, resendAfter: 0 }) },
        locale,
      );
      await requestCode(user, '211234', locale);
      const resend = await screen.findByRole('button', { name: resendLabel });
      await waitFor(() => expect(resend).toHaveProperty('disabled', false));
      api.on('POST /auth/request-pin', () => fail(503, 'SMS_NOT_SENT', 'server text'));
      await user.click(resend);
      expect((await screen.findByRole('alert')).textContent).toContain(message);
    },
  );

  it('sends the complete code by itself, stores the tokens and goes home (SPEC §4 "Session")', async () => {
    const { user, api, router, storage } = await setup({
      'POST /auth/enter-pin': () => ok(tokens),
      'GET /auth/me': (req) =>
        req.headers.authorization === 'Bearer a-pin' ? ok(demoUser) : fail(401, 'UNAUTHORIZED'),
      'GET /subscriptions': () => ok(subscriptionsWithPlan),
      'GET /orders': () => ok([]),
    });
    await requestCode(user, '+298211234');
    await user.type(await screen.findByLabelText('Kota úr SMS'), '123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('POST /auth/enter-pin')).toHaveLength(1);
    expect(api.callsTo('POST /auth/enter-pin')[0]?.body).toEqual({
      // The device it signs in from (ADR 0059).
      device: expect.objectContaining({ platform: 'web' }),
      phoneNumber: '211234',
      password: '123456',
    });
    expect(await storage.get('accessToken')).toBe('a-pin');
    expect(await storage.get('refreshToken')).toBe('r-pin');
    expect(await screen.findByRole('heading', { level: 1, name: /Rannvá/ })).toBeTruthy();
  });

  it.each([
    ['fo', 401, 'INVALID_PIN', 'Kotan er skeiv.'],
    ['en', 401, 'INVALID_PIN', 'The code is incorrect.'],
    ['fo', 410, 'PIN_EXPIRED', 'Kotan er útgingin. Bið um eina nýggja.'],
    ['en', 410, 'PIN_EXPIRED', 'The code has expired. Request a new one.'],
  ] as const)('%s: shows %s %s as "%s", keeping the code', async (locale, status, code, text) => {
    const { user, api, router } = await setup(
      { 'POST /auth/enter-pin': () => fail(status, code, 'server text') },
      locale,
    );
    await requestCode(user, '211234', locale);
    const label = locale === 'fo' ? 'Kota úr SMS' : 'Code from the SMS';
    await user.type(await screen.findByLabelText(label), '654321');
    expect((await screen.findByRole('alert')).textContent).toContain(text);
    expect(screen.getByLabelText<HTMLInputElement>(label).value).toBe('654321');
    expect(router.state.location.pathname).toBe('/rita-inn/pin');
    // No refresh attempt and no sign-out: a 401 from enter-pin is an answer (SPEC §8).
    expect(api.callsTo('POST /auth/refresh-token')).toHaveLength(0);
  });

  it('does not send the same wrong code twice by itself, but sends it when asked', async () => {
    const { user, api } = await setup({ 'POST /auth/enter-pin': () => fail(401, 'INVALID_PIN') });
    await requestCode(user);
    const code = await screen.findByLabelText('Kota úr SMS');
    await user.type(code, '111111');
    await screen.findByRole('alert');
    await user.type(code, '{Backspace}1');
    expect(api.callsTo('POST /auth/enter-pin')).toHaveLength(1);
    await user.type(code, '{Backspace}2');
    await waitFor(() => expect(api.callsTo('POST /auth/enter-pin')).toHaveLength(2));
  });

  it('says the code must be 6 digits when an incomplete code is sent (SPEC §5)', async () => {
    const { user, api } = await setup();
    await requestCode(user);
    await user.type(await screen.findByLabelText('Kota úr SMS'), '123');
    await user.click(screen.getByRole('button', { name: 'Rita inn' }));
    expect(await screen.findByText('Kotan skal vera seks tøl.')).toBeTruthy();
    expect(api.callsTo('POST /auth/enter-pin')).toHaveLength(0);
  });

  it('asks for the number first when opened without one', async () => {
    const app = await renderApp({ initialEntries: ['/rita-inn/pin'] });
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/rita-inn/vid-telefonnummari'),
    );
  });

  it('goes back to the number, filled in, to change it', async () => {
    const { user, router } = await setup();
    await requestCode(user, '211234');
    await user.click(await screen.findByRole('link', { name: 'Skift nummar' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/rita-inn/vid-telefonnummari'),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Telefonnummar').value).toBe('211234');
  });
});
