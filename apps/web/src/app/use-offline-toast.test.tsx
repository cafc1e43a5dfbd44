import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { ToastViewport } from '@/shared/ui/toast/toast-viewport';
import { demoUser } from '@/test/fixtures';
import { createTestContext, Providers, renderApp } from '@/test/render';
import type { ConnectivitySource } from '@/shared/api/connectivity';
import { useOfflineToast } from './use-offline-toast';

const OFFLINE_FO = 'Áh nei, tú hevur onki samband við internetið.';
const OFFLINE_EN = 'Oh no, you have no internet connection.';

/** As a browser does: `navigator.onLine` changes, then the event fires. */
function setConnection(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => void window.dispatchEvent(new Event(online ? 'online' : 'offline')));
}
const goOffline = () => setConnection(false);
const goOnline = () => setConnection(true);

/*
 * Assertions wait (findBy / waitFor): on a loaded machine the app may still be swapping a lazy
 * route in when the event fires, so the toast appears a moment later, not in the same tick.
 */
describe('offline toast (SPEC §4 "Connectivity", §8)', () => {
  it('shows a persistent error toast when the connection drops and clears it on reconnect (SPEC §4)', async () => {
    await renderApp({ initialEntries: ['/rita-inn'] });
    await screen.findByRole('heading', { name: 'Hvussu vilt tú rita inn?' });
    expect(screen.queryByText(OFFLINE_FO)).toBeNull();
    goOffline();
    expect((await screen.findByRole('alert')).textContent).toContain(OFFLINE_FO);
    goOnline();
    await waitFor(() => expect(screen.queryByText(OFFLINE_FO)).toBeNull());
  });

  it('shows it at start when the device is already offline (web: navigator.onLine)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await renderApp({ initialEntries: ['/rita-inn'] });
    expect(await screen.findByText(OFFLINE_FO)).toBeTruthy();
  });

  it('does not go away by itself', async () => {
    await renderApp({ user: demoUser });
    await screen.findByRole('navigation', { name: 'Høvuðsvalmynd' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    goOffline();
    act(() => vi.advanceTimersByTime(30_000));
    // A toast with a duration would have been dismissed by now (its timer was a fake one, run
    // by the advance); this one must still be there. Real timers again for the waiting query.
    vi.useRealTimers();
    expect(await screen.findByText(OFFLINE_FO)).toBeTruthy();
  });

  it('speaks the current language', async () => {
    await renderApp({ initialEntries: ['/rita-inn'], locale: 'en' });
    await screen.findByRole('heading', { name: 'How do you want to log in?' });
    goOffline();
    expect(await screen.findByText(OFFLINE_EN)).toBeTruthy();
  });

  it('follows the Network plugin in the native shell (injected source)', async () => {
    let emit!: (connected: boolean) => void;
    const source: ConnectivitySource = {
      isConnected: async () => true,
      onChange: (callback) => {
        emit = callback;
        return () => {};
      },
    };
    function Harness() {
      useOfflineToast(source);
      return <ToastViewport aboveFooter={false} />;
    }
    const ctx = createTestContext();
    render(
      <Providers ctx={ctx}>
        <Harness />
      </Providers>,
    );
    await waitFor(() => expect(emit).toBeTypeOf('function'));
    act(() => emit(false));
    expect(await screen.findByText(OFFLINE_FO)).toBeTruthy();
    act(() => emit(true));
    await waitFor(() => expect(screen.queryByText(OFFLINE_FO)).toBeNull());
  });
});
