import { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '@/shared/config/paths';
import { firstScreenPath, preloadScreen } from './first-screen';
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
    const chosen = vi.fn(async () => ({}));
    const other = vi.fn(async () => ({}));
    const tree: RouteObject[] = [
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
