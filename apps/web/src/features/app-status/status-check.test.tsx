import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { APP_VERSION } from '@alda/contract/constants';
import type { StatusMessage, StatusResponse } from '@alda/contract/schemas/status';
import { createMemoryStorage } from '@/shared/native/preferences';
import {
  getPlatform,
  isNativePlatform,
  overridePlatform,
  type Platform,
} from '@/shared/native/platform';
import { ModalHost } from '@/shared/ui/modal/modal-host';
import { fail, ok } from '@/test/fake-api';
import { createTestContext, Providers } from '@/test/render';
import { createStatusCheck, isActive, SEEN_STATUS_MESSAGES_KEY } from './status-check';
import { dialogClosed } from '@/test/dialogs';

const deviceMeta = {
  name: 'Rannvá sín iPhone',
  platform: 'ios' as const,
  osVersion: '18.1',
  model: 'iPhone15,2',
  isVirtual: false,
};

const message = (id: string, extra: Partial<StatusMessage> = {}): StatusMessage => ({
  id,
  title: `Boð ${id}`,
  body: `Innihald ${id}`,
  isRead: false,
  activeFrom: null,
  activeTo: null,
  ...extra,
});

function setup({
  native = true,
  platform = 'ios' as Platform,
  status = { mustUpgrade: false, shouldUpgrade: false, messages: [] } as StatusResponse | 'fail',
  seen = [] as string[],
} = {}) {
  const ctx = createTestContext({
    api: {
      'POST /status': () => (status === 'fail' ? fail(503, 'SERVICE_UNAVAILABLE') : ok(status)),
    },
  });
  render(
    <Providers ctx={ctx}>
      <ModalHost />
    </Providers>,
  );
  const storage = createMemoryStorage(
    seen.length ? { [SEEN_STATUS_MESSAGES_KEY]: JSON.stringify(seen) } : {},
  );
  const openUrl = vi.fn(async () => {});
  const storeMessages = vi.fn();
  const check = createStatusCheck({
    isNative: () => native,
    platform: () => platform,
    http: ctx.http,
    getDeviceMeta: async () => deviceMeta,
    storage,
    modals: ctx.modals,
    t: ctx.i18n.t.bind(ctx.i18n),
    openUrl,
    storeUrls: {
      ios: 'https://apps.apple.com/fo/app/alda/id1',
      android: 'https://play.google.com/store/apps/details?id=fo.alda.selfcare',
    },
    storeMessages,
    now: () => new Date('2025-06-01T12:00:00Z'),
  });
  return { ...ctx, check, storage, openUrl, storeMessages, user: userEvent.setup() };
}

describe('status check at app resume (SPEC §1, §4, §8)', () => {
  it('makes no status call on the web (SPEC §1 "only on native platforms")', async () => {
    const { check, api } = setup({ native: false });
    await act(() => check());
    expect(api.requests).toHaveLength(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('posts the app version and the device meta in the native shell (SPEC §7 Status)', async () => {
    const { check, api } = setup();
    await act(() => check());
    expect(api.callsTo('POST /status')).toHaveLength(1);
    expect(api.callsTo('POST /status')[0]?.body).toEqual({
      currentVersion: APP_VERSION,
      deviceMeta,
    });
    expect(APP_VERSION).toBe('3.0.0');
  });

  it("mustUpgrade shows a non-dismissable 'Dagfør appina' alert whose button opens the store (SPEC §8)", async () => {
    const { check, user, openUrl, modals } = setup({
      status: { mustUpgrade: true, shouldUpgrade: true, messages: [] },
    });
    await act(() => check());
    const alert = await screen.findByRole('dialog', { name: 'Dagfør appina' });
    expect(alert.textContent).toContain('gamla útgávu av appini');
    expect(alert.textContent).toContain('Trýst á knøttin');
    await user.keyboard('{Escape}');
    expect(modals.handleBack()).toBe('blocked');
    expect(screen.getByRole('dialog', { name: 'Dagfør appina' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Dagfør appina' }));
    expect(openUrl).toHaveBeenCalledWith('https://apps.apple.com/fo/app/alda/id1');
    // It stays: the old app may not be used.
    expect(screen.getByRole('dialog', { name: 'Dagfør appina' })).toBeTruthy();
  });

  it('opens the Play Store on Android', async () => {
    const { check, user, openUrl } = setup({
      platform: 'android',
      status: { mustUpgrade: true, shouldUpgrade: false, messages: [] },
    });
    await act(() => check());
    await user.click(await screen.findByRole('button', { name: 'Dagfør appina' }));
    expect(openUrl).toHaveBeenCalledWith(
      'https://play.google.com/store/apps/details?id=fo.alda.selfcare',
    );
  });

  it('shows the forced-upgrade alert once however often the app resumes', async () => {
    const { check } = setup({ status: { mustUpgrade: true, shouldUpgrade: false, messages: [] } });
    await act(() => check());
    await act(() => check());
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it("shouldUpgrade asks with 'Dagfør appina' / 'Bíða við dagføring' and opens the store on yes (SPEC §8)", async () => {
    const { check, user, openUrl } = setup({
      status: { mustUpgrade: false, shouldUpgrade: true, messages: [] },
    });
    const done = check();
    const confirm = await screen.findByRole('dialog', { name: 'Dagfør appina' });
    expect(confirm.textContent).toContain('gamla útgávu av appini');
    expect(screen.getByRole('button', { name: 'Bíða við dagføring' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Dagfør appina' }));
    await waitFor(() => expect(openUrl).toHaveBeenCalledTimes(1));
    await done;
  });

  it("lets the user wait with the update ('Bíða við dagføring')", async () => {
    const { check, user, openUrl } = setup({
      status: { mustUpgrade: false, shouldUpgrade: true, messages: [] },
    });
    const done = check();
    await user.click(await screen.findByRole('button', { name: 'Bíða við dagføring' }));
    await dialogClosed();
    await done;
    expect(openUrl).not.toHaveBeenCalled();
  });

  it('stores unread messages, shows each in turn, then remembers them as seen (SPEC §4 "Status messages")', async () => {
    const { check, user, storage, storeMessages } = setup({
      status: {
        mustUpgrade: false,
        shouldUpgrade: false,
        messages: [message('a'), message('b', { isRead: true }), message('c'), message('old')],
      },
      seen: ['old'],
    });
    const done = check();
    const first = await screen.findByRole('dialog', { name: 'Boð a' });
    expect(first.textContent).toContain('Innihald a');
    expect(storeMessages).toHaveBeenCalledWith([
      expect.objectContaining({ id: 'a' }),
      expect.objectContaining({ id: 'c' }),
    ]);
    await user.click(screen.getByRole('button', { name: 'Lat aftur' }));
    expect(await screen.findByRole('dialog', { name: 'Boð c' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Lat aftur' }));
    await dialogClosed();
    await done;
    expect(JSON.parse((await storage.get(SEEN_STATUS_MESSAGES_KEY)) ?? '[]')).toEqual([
      'old',
      'a',
      'c',
    ]);
  });

  it('does not show seen messages again at the next resume', async () => {
    const { check, storeMessages } = setup({
      status: { mustUpgrade: false, shouldUpgrade: false, messages: [message('a')] },
      seen: ['a'],
    });
    await act(() => check());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(storeMessages).not.toHaveBeenCalled();
  });

  it('only logs a failure (SPEC §8 "Status check failure is only logged")', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { check } = setup({ status: 'fail' });
    await act(() => check());
    expect(warn).toHaveBeenCalledWith(
      'Status check failed',
      expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('platform check (src/shared/native/platform.ts)', () => {
  it('runs with the real platform check when the shell says native, and not in a plain browser', async () => {
    const ctx = createTestContext({
      api: { 'POST /status': () => ok({ mustUpgrade: false, shouldUpgrade: false, messages: [] }) },
    });
    const check = createStatusCheck({
      isNative: isNativePlatform,
      platform: getPlatform,
      http: ctx.http,
      getDeviceMeta: async () => deviceMeta,
      storage: createMemoryStorage(),
      modals: ctx.modals,
      t: ctx.i18n.t.bind(ctx.i18n),
      openUrl: async () => {},
      storeUrls: { ios: 'ios', android: 'android' },
      storeMessages: () => {},
    });
    await check(); // jsdom is a browser: no call
    expect(ctx.api.requests).toHaveLength(0);
    overridePlatform('android');
    await check();
    expect(ctx.api.callsTo('POST /status')).toHaveLength(1);
  });
});

describe('status message window (SPEC §4)', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  it('is active between activeFrom and activeTo, with open ends', () => {
    expect(isActive(message('a'), now)).toBe(true);
    expect(
      isActive(
        message('a', { activeFrom: '2025-05-01T00:00:00Z', activeTo: '2025-07-01T00:00:00Z' }),
        now,
      ),
    ).toBe(true);
    expect(isActive(message('a', { activeFrom: '2025-06-02T00:00:00Z' }), now)).toBe(false);
    expect(isActive(message('a', { activeTo: '2025-06-01T12:00:00Z' }), now)).toBe(false);
  });
});
