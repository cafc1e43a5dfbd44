import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { plans } from '@/test/account-fixtures';
import { ok, quietPolls } from '@/test/fake-api';
import { defaultSettings, installFakeWebPush } from '@/test/fake-web-push';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { rememberTappedStart } from '@/shared/auth/return-path-storage';
import { overridePlatform } from '@/shared/native/platform';
import { followPushTaps } from './push-taps';

// The native push plugin (outside the system): the listener the app adds for a tap, kept; the
// OS's permission and the token it hands over when the app registers.
const taps = vi.hoisted(() => ({
  listener: null as ((action: unknown) => void) | null,
  registration: null as ((token: unknown) => void) | null,
  permission: 'prompt',
  token: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
}));
vi.mock('@capacitor/push-notifications', () => ({
  PushNotifications: {
    checkPermissions: async () => ({ receive: taps.permission }),
    addListener: async (event: string, listener: (event: unknown) => void) => {
      if (event === 'pushNotificationActionPerformed') taps.listener = listener;
      if (event === 'registration') taps.registration = listener;
      return { remove: async () => {} };
    },
    register: async () => {
      setTimeout(() => taps.registration?.({ value: taps.token }), 0);
    },
  },
}));

const signIn = {
  'POST /auth/email-login': () => ok({ accessToken: 'a-1', refreshToken: 'r-1', expiresIn: 900 }),
  'GET /auth/me': () => ok(demoUser),
  'GET /subscriptions': () => ok(subscriptionsWithPlan),
  'GET /orders': () => ok([]),
  'GET /actions': () => ok([]),
  'GET /packages': () => ok([]),
  'GET /plans': () => ok(plans),
  'GET /agreements': () => ok(null),
};

/**
 * The app as main.tsx starts it: rendered, and once its first screen is up, following taps
 * (push-taps.ts).
 */
async function startApp(options: Parameters<typeof renderApp>[0]) {
  const app = await renderApp(options);
  const stop = followPushTaps({
    navigate: (path) => void app.router.navigate(path),
    session: app.session,
    http: app.http,
  });
  stops.push(stop);
  return app;
}
const stops: (() => void)[] = [];

/** Rannva signs in on the e-mail sign-in screen. */
async function signInByEmail(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Teldupostur'), 'rannva@example.fo');
  await user.type(screen.getByLabelText('Loyniorð'), 'Loyniord1');
  await user.click(screen.getByRole('button', { name: 'Rita inn' }));
}
afterEach(() => stops.splice(0).forEach((stop) => stop()));

// Where a guest was going is kept in this tab's sessionStorage, which jsdom keeps between tests.
beforeEach(() => {
  sessionStorage.clear();
  taps.permission = 'prompt';
});

describe('a tapped notification opens its screen (issue 64)', () => {
  it("web: the service worker's message opens the link with the app's router", async () => {
    const browser = installFakeWebPush();
    const app = await startApp({ user: demoUser, initialEntries: ['/menu'], api: quietPolls });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(browser.listening()).toBe(1));
    act(() => browser.postFromWorker({ type: 'alda:navigate', link: '/frabodanir' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/frabodanir'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Fráboðanir' })).toBeTruthy();
  });

  it('a tap after moving to another screen still opens its link: the listener stays', async () => {
    const browser = installFakeWebPush();
    const app = await startApp({ user: demoUser, initialEntries: ['/menu'], api: quietPolls });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(browser.listening()).toBe(1));
    await act(() => app.router.navigate('/min-brukari'));
    await screen.findByRole('heading', { level: 1, name: 'Mín brúkari' });
    // Added once for the app, not per screen.
    expect(browser.added()).toBe(1);
    act(() => browser.postFromWorker({ type: 'alda:navigate', link: '/frabodanir' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/frabodanir'));
  });

  it('follows only a route of the app, and only the worker’s navigate message', async () => {
    const browser = installFakeWebPush();
    const app = await startApp({ user: demoUser, initialEntries: ['/menu'], api: quietPolls });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(browser.listening()).toBe(1));
    act(() => {
      browser.postFromWorker({ type: 'something-else', link: '/frabodanir' });
      browser.postFromWorker({ type: 'alda:navigate', link: '//evil.example/frabodanir' });
      browser.postFromWorker({ type: 'alda:navigate', link: 'https://evil.example/' });
      browser.postFromWorker({ type: 'alda:navigate', link: '/finst/ikki' });
      browser.postFromWorker('alda:navigate');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.router.state.location.pathname).toBe('/menu');
  });

  it('signed out: login first, then the screen the notification was about', async () => {
    const browser = installFakeWebPush();
    const app = await startApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: { ...signIn, ...quietPolls },
    });
    await screen.findByRole('heading', { level: 2 });
    await waitFor(() => expect(browser.listening()).toBe(1));
    act(() => browser.postFromWorker({ type: 'alda:navigate', link: '/frabodanir' }));
    // The guards send a guest to login.
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/rita-inn'));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: /Við teldupostinum/ }));
    await signInByEmail(user);
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/frabodanir'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Fráboðanir' })).toBeTruthy();
    // Once: the next sign-in goes home as usual.
    expect(sessionStorage.getItem('alda.returnPath')).toBeNull();
  });

  it('a guest whom a tapped notification started the app at lands on its screen after signing in', async () => {
    // Start-up found a guest at the tapped address and sent them to login (main.tsx); the app's
    // screens and its later start (push-taps.ts) are not loaded yet when the guest signs in.
    rememberTappedStart('/frabodanir', '?fra=push&tapped=1');
    const app = await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: { ...signIn, ...quietPolls },
    });
    await signInByEmail(userEvent.setup());
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/frabodanir'));
    // The link's own query stays; the service worker's mark does not.
    expect(app.router.state.location.search).toBe('?fra=push');
  });

  it("native shell: the push plugin's tap opens the link its data carries", async () => {
    overridePlatform('android');
    const app = await startApp({ user: demoUser, initialEntries: ['/menu'], api: quietPolls });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(taps.listener).not.toBeNull());
    act(() =>
      taps.listener?.({
        actionId: 'tap',
        notification: { id: '1', data: { link: '/frabodanir', kind: 'usage', id: 'n-41' } },
      }),
    );
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/frabodanir'));
    // A tap without a link of ours changes nothing.
    act(() => taps.listener?.({ actionId: 'tap', notification: { id: '2', data: {} } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.router.state.location.pathname).toBe('/frabodanir');
  });

  it('a sign-in without a notification goes home, as before', async () => {
    // Opened at a signed-in address some other way (a bookmark, a payment's return).
    rememberTappedStart('/frabodanir', '');
    const app = await renderApp({
      initialEntries: ['/rita-inn/vid-telduposti'],
      api: { ...signIn, ...quietPolls },
    });
    await signInByEmail(userEvent.setup());
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
  });

  it('native shell: a signed-in start with push on hands the OS’s current token to the server', async () => {
    overridePlatform('ios');
    taps.permission = 'granted';
    const app = await startApp({
      user: demoUser,
      initialEntries: ['/menu'],
      api: {
        ...quietPolls,
        'GET /notification-settings': () =>
          ok({ ...defaultSettings, vapidPublicKey: null, thisDeviceRegistered: true }),
        'PUT /push/device': () =>
          ok({ platform: 'apns', registeredAt: '2026-11-30T09:00:00.000Z' }),
      },
    });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() =>
      expect(app.api.callsTo('PUT /push/device').map((call) => call.body)).toEqual([
        { platform: 'apns', token: taps.token },
      ]),
    );
  });
});
