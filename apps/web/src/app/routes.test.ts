import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryClient } from '@tanstack/react-query';
import type { AppRoute } from '@/shared/router/app-router';
import { describe, expect, it, vi } from 'vitest';
import { href, ROUTES, segment, type RoutePattern } from '@/shared/config/paths';
import type { RouteHandle } from './route-handle';
import { createAppRoutes, FIRST_SCREENS } from './routes';

/** Full path patterns of every route in the router's tree (index routes count as their parent). */
function routePatterns(routes: AppRoute[], parent = ''): string[] {
  return routes.flatMap((route) => {
    if (route.path === '*') return [];
    const here =
      route.path === undefined
        ? parent
        : `${parent.replace(/\/$/, '')}/${route.path}`.replace(/^\/\//, '/');
    const own = route.path !== undefined || route.index ? [here || '/'] : [];
    return [...own, ...routePatterns(route.children ?? [], here)];
  });
}

const session = {
  getState: () => ({ user: null }) as never,
};
const tree = createAppRoutes({ session, queryClient: new QueryClient() });
const table = Object.values(ROUTES) as RoutePattern[];

describe('one route table (shared/config/paths.ts) for the router and every link (SPEC §2)', () => {
  it('writes each path once', () => {
    expect(new Set(table).size).toBe(table.length);
  });

  it('registers exactly the routes of the table, at the paths of the table', () => {
    // A layout route and its index route share a path: count the path once.
    const registered = [...new Set(routePatterns(tree))];
    expect(registered.sort()).toEqual([...table].sort());
  });

  it('fills parameters URL-encoded and adds a query', () => {
    expect(href(ROUTES.familyMember, { id: 'a/b c' })).toBe('/familju-limur/a%2Fb%20c');
    expect(href(ROUTES.paymentStatus, { orderId: 'o-1' })).toBe('/betaling/o-1');
    expect(href(ROUTES.receipt, { receiptId: '7' })).toBe('/menu/kvittanir/7');
    expect(href(ROUTES.buyPackage, {}, { nummar: '214455' })).toBe('/keyp-pakka?nummar=214455');
  });

  it("gives the router a route's segment under its parent, and refuses a wrong parent", () => {
    expect(segment(ROUTES.terms, ROUTES.menu)).toBe('treytir');
    expect(segment(ROUTES.plan, ROUTES.menu)).toBe('hald/:planId');
    expect(segment(ROUTES.notifications)).toBe('frabodanir');
    expect(() => segment(ROUTES.terms, ROUTES.profile)).toThrow(/not under/);
  });

  it('is the only place a path is written: no other source file has a path literal', () => {
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const firstSegments = [...new Set(table.map((p) => p.split('/')[1]).filter(Boolean))];
    const literal = new RegExp(`['"\`]/(${firstSegments.join('|')})(?=[/'"\`?])`);
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (f) =>
        /\.(ts|tsx)$/.test(f) &&
        !/\.test\.tsx?$/.test(f) &&
        !f.startsWith('test/') &&
        f !== path.join('shared', 'config', 'paths.ts'),
    );
    const offenders = files.flatMap((file) =>
      readFileSync(path.join(src, file), 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${file}:${i + 1}` }))
        // Comments may name a path; code may not.
        .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && literal.test(line))
        .map(({ at }) => at),
    );
    expect(offenders).toEqual([]);
  });
});

describe('the later screens bring their texts (issue 13, shared/i18n/text-parts.ts)', () => {
  /** Every route with a lazy screen, by id or path. */
  function lazyRoutes(routes: AppRoute[]): AppRoute[] {
    return routes.flatMap((route) => [
      ...(typeof route.lazy === 'function' ? [route] : []),
      ...lazyRoutes(route.children ?? []),
    ]);
  }

  it('waits for the later texts on every screen but the first ones, and only there', async () => {
    let release = () => {};
    const loadTexts = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    const routes = lazyRoutes(
      createAppRoutes({ session, queryClient: new QueryClient() }, loadTexts),
    );
    const first = routes.filter((r) => Object.values(FIRST_SCREENS).includes(r.id as never));
    expect(first.map((r) => r.id).sort()).toEqual(['buy-package', 'home', 'login-chooser']);

    for (const route of first) await (route.lazy as () => Promise<unknown>)();
    expect(loadTexts).not.toHaveBeenCalled();

    const menu = routes.find((r) => (r.handle as RouteHandle | undefined)?.title === 'menu.title')!;
    let loaded = false;
    const loading = (menu.lazy as () => Promise<unknown>)().then(() => (loaded = true));
    expect(loadTexts).toHaveBeenCalledTimes(1);
    // The screen's chunk is there (the same module the route imports), the texts are not.
    await import('@/features/menu/menu-screen');
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(loaded).toBe(false);
    release();
    await loading;
    expect(loaded).toBe(true);
    expect(routes.length - first.length).toBeGreaterThan(30);
  });
});
