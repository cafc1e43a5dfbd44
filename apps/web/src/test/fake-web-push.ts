/**
 * The browser's side of web push for tests (issue 64): jsdom has no Notification, PushManager nor
 * service worker, so a test that needs them installs these fakes — the permission and its dialog's
 * answer, the app's service worker registration and its push subscription — and reads what the
 * app asked of them. Removed again when the test ends. Also the settings the API answers.
 */
import { onTestFinished, vi } from 'vitest';
import type { NotificationSettings } from '@alda/contract/schemas/push';

/** A VAPID public key as the API gives it (base64url of an uncompressed P-256 point). */
export const VAPID_PUBLIC_KEY =
  'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

/** The subscription the fake push service makes. */
export const SUBSCRIPTION = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH',
  keys: {
    p256dh:
      'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};

/** The settings of a customer who has changed nothing (GET /api/notification-settings). */
export const defaultSettings: NotificationSettings = {
  kinds: [
    { kind: 'usage', push: { on: true, mode: 'switch' }, email: { on: false, mode: 'switch' } },
    { kind: 'roaming', push: { on: true, mode: 'switch' } },
    { kind: 'family', push: { on: true, mode: 'switch' } },
    { kind: 'payments', push: { on: true, mode: 'switch' }, email: { on: true, mode: 'always' } },
    { kind: 'orders', push: { on: true, mode: 'switch' }, email: { on: true, mode: 'always' } },
    {
      kind: 'support',
      push: { on: true, mode: 'switch' },
      email: { on: true, mode: 'always' },
      sms: { on: true, mode: 'always' },
    },
    { kind: 'security', push: { on: true, mode: 'always' }, email: { on: true, mode: 'always' } },
    { kind: 'status', push: { on: true, mode: 'switch' } },
  ],
  quietHours: { on: true, from: 22 * 60, to: 8 * 60 },
  vapidPublicKey: VAPID_PUBLIC_KEY,
  thisDeviceRegistered: false,
  devices: 0,
};

/** The browser a test starts with; by default one that can push and has not been asked. */
export interface FakeWebPushOptions {
  /** The permission before anything is asked. */
  permission?: NotificationPermission;
  /** What the customer answers in the permission dialog. */
  answer?: NotificationPermission;
  /**
   * Whether the app's service worker is registered (the dev server has none), or `later`: not
   * yet, it becomes ready (a production build registers it after the first screen).
   */
  serviceWorker?: boolean | 'later';
}

/** Installs Notification, PushManager and navigator.serviceWorker for the current test. */
export function installFakeWebPush({
  permission = 'default',
  answer = 'granted',
  serviceWorker = true,
}: FakeWebPushOptions = {}) {
  const state = { permission, subscription: null as PushSubscription | null };
  const unsubscribe = vi.fn(async () => {
    state.subscription = null;
    return true;
  });
  const subscribe = vi.fn(async (_options: PushSubscriptionOptionsInit) => {
    if (state.permission !== 'granted') throw new DOMException('Not allowed', 'NotAllowedError');
    state.subscription = {
      endpoint: SUBSCRIPTION.endpoint,
      toJSON: () => SUBSCRIPTION,
      unsubscribe,
    } as unknown as PushSubscription;
    return state.subscription;
  });
  const registration = {
    pushManager: { subscribe, getSubscription: async () => state.subscription },
  } as unknown as ServiceWorkerRegistration;
  const requestPermission = vi.fn(async () => {
    state.permission = answer;
    return answer;
  });
  const messages = new EventTarget();
  let listening = 0;
  let added = 0;

  vi.stubGlobal('PushManager', function PushManager() {});
  // A getter (Object.assign would copy its value once): the permission changes when answered.
  vi.stubGlobal(
    'Notification',
    Object.defineProperties(function Notification() {}, {
      permission: { get: () => state.permission },
      requestPermission: { value: requestPermission },
    }),
  );
  Object.defineProperty(window.navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: async () => (serviceWorker === true ? registration : undefined),
      ready: serviceWorker ? Promise.resolve(registration) : new Promise(() => {}),
      addEventListener: (type: string, listener: EventListener) => {
        listening += 1;
        added += 1;
        messages.addEventListener(type, listener);
      },
      removeEventListener: (type: string, listener: EventListener) => {
        listening -= 1;
        messages.removeEventListener(type, listener);
      },
    },
  });
  onTestFinished(() => {
    delete (window.navigator as { serviceWorker?: unknown }).serviceWorker;
  });

  return {
    state,
    requestPermission,
    subscribe,
    unsubscribe,
    /** How many listeners the page has on the service worker's messages. */
    listening: () => listening,
    /** How many times one was added (a listener taken off and added again leaves a gap). */
    added: () => added,
    /** The service worker posts `data` to this window (a tapped notification). */
    postFromWorker(data: unknown) {
      messages.dispatchEvent(new MessageEvent('message', { data }));
    },
  };
}
