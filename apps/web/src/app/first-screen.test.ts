import { QueryClient } from '@tanstack/react-query';
import type { AppRoute } from '@/shared/router/app-router';
import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '@/shared/config/paths';
import { afterFirstScreen, firstScreenPath, preloadScreen } from './first-screen';
import { createAppRoutes } from './routes';

const routes = createAppRoutes({
  session: { getState: () => ({ user: null, userFetched: true }) },
  queryClient: new QueryClient(),
});

describe('the first screen, preloaded while start-up runs (issue 13)', () => {
  it('is where the guards will send the visitor', () => {
    expect(firstScreenPath(routes, ROUTES.home, false)).toBe(ROUTES.login);
    expect(firstScreenPath(routes, ROUTES.menu, false)).toBe(ROUTES.login);
    expect(firstScreenPath(routes, ROUTES.loginPhone, false)).toBe(ROUTES.loginPhone);
    expect(firstScreenPath(routes, ROUTES.home, true)).toBe(ROUTES.home);
    expect(firstScreenPath(routes, ROUTES.login, true)).toBe(ROUTES.home);
    expect(firstScreenPath(routes, '/menu/hald', true)).toBe('/menu/hald');
  });

  it("asks for the lazy chunks of the path's routes, and only those", async () => {
    const chosen = vi.fn(async () => ({ Component: () => null }));
    const other = vi.fn(async () => ({ Component: () => null }));
    const tree: AppRoute[] = [
      {
        path: '/',
        children: [
          { path: 'a', lazy: chosen },
          { path: 'b', lazy: other },
        ],
      },
    ];
    preloadScreen(tree, '/a');
    expect(chosen).toHaveBeenCalledOnce();
    expect(other).not.toHaveBeenCalled();
  });

  it('only warns when a chunk cannot be loaded (the router tries again)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    preloadScreen([{ path: '/a', lazy: () => Promise.reject(new Error('offline')) }], '/a');
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
  });

  it('loads the real screen module of home', async () => {
    const home = routes
      .flatMap((r) => r.children ?? [])
      .find((r) => r.id === 'authenticated')
      ?.children?.find((r) => r.index);
    expect(typeof home?.lazy).toBe('function');
    const spy = vi.spyOn(home as { lazy: () => Promise<unknown> }, 'lazy');
    preloadScreen(routes, ROUTES.home);
    expect(spy).toHaveBeenCalledOnce();
    await spy.mock.results[0]?.value;
  });
});

describe('work that waits for the first screen (issue 13)', () => {
  it('starts only after the router has shown its first screen, then when the browser is idle', async () => {
    const listeners = new Set<(state: { initialized: boolean }) => void>();
    const router = {
      state: { initialized: false },
      subscribe: (listener: (state: { initialized: boolean }) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    let done = false;
    const waiting = afterFirstScreen(router).then(() => (done = true));

    for (const listener of [...listeners]) listener({ initialized: false });
    await Promise.resolve();
    expect(idle).toHaveLength(0);

    router.state.initialized = true;
    for (const listener of [...listeners]) listener({ initialized: true });
    for (let i = 0; i < 5; i++) await Promise.resolve();
    expect(idle).toHaveLength(1);
    expect(listeners.size).toBe(0);
    expect(done).toBe(false);
    idle[0]!();
    await waiting;
    expect(done).toBe(true);
  });
});
