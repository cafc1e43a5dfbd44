import { describe, expect, it, vi } from 'vitest';
import {
  listenForPushes,
  type ClientsLike,
  type NotificationClickLike,
  type PushEventLike,
  type PushWorkerScope,
  type WindowLike,
} from './push';

/** A worker scope with fake registration and clients, recording what it was asked to do. */
function fakeWorker(windows: Array<Partial<WindowLike> & { url: string }> = []) {
  const listeners = new Map<string, (event: never) => void>();
  const shown: Array<{ title: string; options: NotificationOptions }> = [];
  const opened: string[] = [];
  const open = windows.map((w) => ({
    focused: false,
    focus: vi.fn(async () => undefined),
    postMessage: vi.fn(),
    ...w,
  }));
  const clients: ClientsLike = {
    matchAll: async () => open,
    openWindow: async (url) => void opened.push(url),
  };
  const scope: PushWorkerScope = {
    registration: {
      showNotification: async (title, options) => void shown.push({ title, options }),
    },
    clients,
    addEventListener: (type: string, listener: (event: never) => void) =>
      void listeners.set(type, listener),
  };
  listenForPushes(scope);

  /** Fires an event and waits for what it handed to waitUntil. */
  const fire = async (type: string, event: object) => {
    let work: Promise<unknown> = Promise.resolve();
    const listener = listeners.get(type);
    if (!listener) throw new Error(`no ${type} listener`);
    listener({ ...event, waitUntil: (p: Promise<unknown>) => (work = p) } as never);
    await work;
  };
  return {
    shown,
    opened,
    windows: open,
    push: (payload: unknown) =>
      fire('push', {
        data:
          payload === null
            ? null
            : {
                json: () => (typeof payload === 'string' ? JSON.parse(payload) : payload),
              },
      } satisfies Omit<PushEventLike, keyof Event | 'waitUntil'>),
    tap: (data: unknown) => {
      const close = vi.fn();
      return {
        close,
        done: fire('notificationclick', {
          notification: { data, close },
        } satisfies Omit<NotificationClickLike, keyof Event | 'waitUntil'>),
      };
    },
  };
}

const usageAlert = {
  id: 'n-41',
  kind: 'usage',
  title: '80 % av datanum er brúkt',
  body: '21 43 65 hevur brúkt 8 av 10 GB.',
  link: '/nytsla/l-1',
};

describe('service worker: web push (issue 64)', () => {
  it("shows a push's notification: its texts, the id as tag, the link in its data, the app's icon", async () => {
    const sw = fakeWorker();
    await sw.push({ ...usageAlert, lang: 'fo' });
    expect(sw.shown).toEqual([
      {
        title: '80 % av datanum er brúkt',
        options: {
          body: '21 43 65 hevur brúkt 8 av 10 GB.',
          tag: 'n-41',
          data: { link: '/nytsla/l-1', kind: 'usage', id: 'n-41' },
          icon: '/favicon.svg',
          badge: '/favicon.svg',
          lang: 'fo',
        },
      },
    ]);
  });

  it.each([
    ['no payload', null],
    ['a payload that is not JSON', '{not json'],
    ['a missing title', { ...usageAlert, title: undefined }],
    ['a kind the app does not know', { ...usageAlert, kind: 'lottery' }],
    ['a link to another site', { ...usageAlert, link: '//evil.example/login' }],
    ['a link with a backslash', { ...usageAlert, link: '/\\evil.example' }],
  ])('shows nothing for %s, without throwing', async (_what, payload) => {
    const sw = fakeWorker();
    await expect(sw.push(payload)).resolves.toBeUndefined();
    expect(sw.shown).toEqual([]);
  });

  it('a tap closes the notification and opens its screen in the open window of the app, focused', async () => {
    const sw = fakeWorker([
      { url: 'https://minsida.alda.fo/console/kundar' },
      { url: 'https://minsida.alda.fo/menu' },
    ]);
    const tap = sw.tap({ link: '/nytsla/l-1', kind: 'usage', id: 'n-41' });
    await tap.done;
    expect(tap.close).toHaveBeenCalled();
    const [console, app] = sw.windows;
    // The staff console on the same origin is not the app.
    expect(console?.postMessage).not.toHaveBeenCalled();
    expect(app?.postMessage).toHaveBeenCalledWith({ type: 'alda:navigate', link: '/nytsla/l-1' });
    expect(app?.focus).toHaveBeenCalled();
    expect(sw.opened).toEqual([]);
  });

  it('prefers the window the customer is looking at when the app is open in more than one', async () => {
    const sw = fakeWorker([
      { url: 'https://minsida.alda.fo/' },
      { url: 'https://minsida.alda.fo/min-brukari', focused: true },
    ]);
    await sw.tap({ link: '/frabodanir' }).done;
    expect(sw.windows[0]?.postMessage).not.toHaveBeenCalled();
    expect(sw.windows[1]?.postMessage).toHaveBeenCalledWith({
      type: 'alda:navigate',
      link: '/frabodanir',
    });
  });

  it('opens a new window at the link when no window of the app is open', async () => {
    const sw = fakeWorker();
    const tap = sw.tap({ link: '/frabodanir' });
    await tap.done;
    expect(tap.close).toHaveBeenCalled();
    expect(sw.opened).toEqual(['/frabodanir?tapped=1']);
  });

  it('never opens another site: a link that is not an app path opens the app', async () => {
    const sw = fakeWorker();
    await sw.tap({ link: 'https://evil.example/' }).done;
    await sw.tap({ link: '//evil.example/' }).done;
    await sw.tap(null).done;
    expect(sw.opened).toEqual(['/?tapped=1', '/?tapped=1', '/?tapped=1']);
  });
});

describe('the address a tapped notification opens (issue 64)', () => {
  it('is kept for after the sign-in only when the service worker opened it', async () => {
    const { openedByPush, pushReturnPath } = await import('../shared/push/opened-by-push');
    expect(openedByPush('/nytsla/1')).toBe('/nytsla/1?tapped=1');
    expect(openedByPush('/x?a=1')).toBe('/x?a=1&tapped=1');
    expect(pushReturnPath('/nytsla/1', '?tapped=1')).toBe('/nytsla/1');
    expect(pushReturnPath('/x', '?a=1&tapped=1')).toBe('/x?a=1');
    // A bookmark, a payment's return: home after the sign-in, as before.
    expect(pushReturnPath('/betaling/1', '')).toBeNull();
    expect(pushReturnPath('/betaling/1', '?a=1')).toBeNull();
  });
});
