import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Outlet } from 'react-router';
import { renderApp } from '@/test/render';
import { deepLinkPath, useDeepLinks } from './use-deep-links';

describe('deep links into the native shell (ADR 0054)', () => {
  it('reads the app path of an App Link / Universal Link and of the custom scheme', () => {
    expect(deepLinkPath('https://minsida.alda.fo/betaling/o-1')).toBe('/betaling/o-1');
    expect(deepLinkPath('https://minsida.alda.fo/nytt-loyniord?token=abc#x')).toBe(
      '/nytt-loyniord?token=abc#x',
    );
    expect(deepLinkPath('fo.alda.selfcare://betaling/o-1')).toBe('/betaling/o-1');
    expect(deepLinkPath('fo.alda.selfcare://betaling/o-1/')).toBe('/betaling/o-1');
    expect(deepLinkPath('https://minsida.alda.fo')).toBe('/');
    expect(deepLinkPath('fo.alda.selfcare://')).toBeNull();
    expect(deepLinkPath('not a url')).toBeNull();
  });

  it("opens the link's screen and closes the in-app browser it came from (the card page's return)", async () => {
    let open: ((url: string) => void) | null = null;
    const subscribe = (callback: (url: string) => void) => {
      open = callback;
      return () => {
        open = null;
      };
    };
    const closeBrowser = vi.fn(async () => {});
    function Layout() {
      useDeepLinks(subscribe, closeBrowser);
      return <Outlet />;
    }
    const app = await renderApp({
      routes: () => [
        {
          element: <Layout />,
          hydrateFallbackElement: <p>…</p>,
          children: [
            { path: '/', element: <h1>home</h1> },
            { path: '/betaling/:orderId', element: <h1>status</h1> },
          ],
        },
      ],
    });
    await screen.findByRole('heading', { name: 'home' });
    // The listener is registered by an effect, which may run a moment after the first paint.
    await waitFor(() => expect(open).not.toBeNull());
    act(() => open?.('https://minsida.alda.fo/betaling/o-7'));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/betaling/o-7'));
    expect(screen.getByRole('heading', { name: 'status' })).toBeTruthy();
    expect(closeBrowser).toHaveBeenCalledTimes(1);
    // A link without an app path changes nothing.
    act(() => open?.('fo.alda.selfcare://'));
    expect(closeBrowser).toHaveBeenCalledTimes(1);
    expect(app.router.state.location.pathname).toBe('/betaling/o-7');
  });
});
