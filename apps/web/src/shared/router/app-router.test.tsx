import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferred } from '@/test/fake-api';
import { Link, Outlet } from 'react-router';
import {
  createAppRouter,
  RouterView,
  useBlocker,
  useNavigationIdle,
  useRouteHandles,
  useScrollRestoration,
  type AppRoute,
  type AppRouter,
} from './app-router';

const screenOf = (name: string) => ({ Component: () => <h1>{name}</h1> });

function Frame() {
  const idle = useNavigationIdle();
  const handles = useRouteHandles() as ({ title?: string } | undefined)[];
  useScrollRestoration();
  return (
    <>
      <p>{idle ? 'idle' : 'loading'}</p>
      <p>
        title:{' '}
        {handles
          .map((h) => h?.title)
          .filter(Boolean)
          .join('/')}
      </p>
      <Link to="/b">to b</Link>
      <Outlet />
    </>
  );
}

async function show(routes: AppRoute[], at = '/') {
  const router = createAppRouter(routes, { initialEntries: [at] });
  await router.ready();
  await act(async () => {
    render(<RouterView router={router} />);
  });
  return router;
}
const path = (router: AppRouter) => router.state.location.pathname;

afterEach(() => vi.restoreAllMocks());

describe('the app router (issue 45, ADR 0089: the data router features it keeps)', () => {
  it('keeps the screen shown until the next screen’s chunk has loaded, then shows it', async () => {
    const chunk = deferred<{ Component: () => React.JSX.Element }>();
    const router = await show([
      {
        Component: Frame,
        children: [
          { path: '/', element: <h1>a</h1>, handle: { title: 'A' } },
          { path: '/b', lazy: () => chunk.promise, handle: { title: 'B' } },
        ],
      },
    ]);
    expect(screen.getByText('title: A')).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'to b' }));
    // Still on a, and it says a navigation is under way.
    expect(screen.getByRole('heading', { name: 'a' })).toBeTruthy();
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => chunk.resolve(screenOf('b')));
    expect(await screen.findByRole('heading', { name: 'b' })).toBeTruthy();
    expect(screen.getByText('idle')).toBeTruthy();
    expect(screen.getByText('title: B')).toBeTruthy();
    expect(path(router)).toBe('/b');
  });

  it('sends a guarded route elsewhere without asking for its chunk (SPEC §2 guards)', async () => {
    const secret = vi.fn(async () => screenOf('secret'));
    const router = await show(
      [
        { path: '/', element: <h1>login</h1> },
        { path: '/secret', guard: () => '/', lazy: secret },
      ],
      '/secret',
    );
    expect(await screen.findByRole('heading', { name: 'login' })).toBeTruthy();
    expect(path(router)).toBe('/');
    expect(secret).not.toHaveBeenCalled();
  });

  it('keeps the screen shown while a guard sends a navigation to a screen still loading (no empty frame)', async () => {
    const login = deferred<{ Component: () => React.JSX.Element }>();
    const router = await show([
      {
        Component: Frame,
        children: [
          { path: '/', element: <h1>a</h1> },
          { path: '/b', guard: () => '/login', element: <h1>guarded</h1> },
          { path: '/login', lazy: () => login.promise },
        ],
      },
    ]);
    await userEvent.click(screen.getByRole('link', { name: 'to b' }));
    // The guard answered before anything rendered: a is still shown while login loads.
    expect(screen.getByRole('heading', { name: 'a' })).toBeTruthy();
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => login.resolve(screenOf('login')));
    expect(await screen.findByRole('heading', { name: 'login' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'guarded' })).toBeNull();
    expect(path(router)).toBe('/login');
  });

  it('shows the error screen when a chunk cannot load, and loads it again on the next visit', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const router = await show([
      {
        Component: () => <Outlet />,
        ErrorBoundary: ({ error }) => <p role="alert">{String(error)}</p>,
        children: [
          { path: '/', element: <h1>a</h1> },
          {
            path: '/b',
            lazy: async () => {
              attempts += 1;
              if (attempts === 1) throw new Error('offline');
              return screenOf('b');
            },
          },
        ],
      },
    ]);
    await act(() => router.navigate('/b'));
    expect((await screen.findByRole('alert')).textContent).toContain('offline');
    await act(() => router.navigate('/'));
    expect(await screen.findByRole('heading', { name: 'a' })).toBeTruthy();
    await act(() => router.navigate('/b'));
    expect(await screen.findByRole('heading', { name: 'b' })).toBeTruthy();
    expect(attempts).toBe(2);
  });

  it('asks the blocker before back and forward too, and undoes a refused back (SPEC §2 unsaved changes)', async () => {
    const answers: { proceed: () => void; reset: () => void }[] = [];
    function Form() {
      const blocker = useBlocker(({ nextLocation }) => nextLocation.pathname === '/');
      if (blocker.state === 'blocked') answers.push(blocker);
      return <h1>form</h1>;
    }
    const router = await show([
      { path: '/', element: <h1>start</h1> },
      { path: '/form', Component: Form },
    ]);
    await act(() => router.navigate('/form'));
    expect(await screen.findByRole('heading', { name: 'form' })).toBeTruthy();

    await act(() => router.navigate(-1));
    expect(answers).toHaveLength(1);
    expect(path(router)).toBe('/form');
    expect(screen.getByRole('heading', { name: 'form' })).toBeTruthy();
    act(() => answers[0]!.reset());

    await act(() => router.navigate('/', { replace: false }));
    expect(answers).toHaveLength(2);
    expect(path(router)).toBe('/form');
    act(() => answers[1]!.proceed());
    expect(await screen.findByRole('heading', { name: 'start' })).toBeTruthy();
    expect(path(router)).toBe('/');
  });

  it('starts a new screen at the top and brings back the position on back (scroll restoration)', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    let y = 0;
    vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
    const router = await show([
      {
        Component: Frame,
        children: [
          { path: '/', element: <h1>a</h1> },
          { path: '/b', element: <h1>b</h1> },
        ],
      },
    ]);
    y = 640;
    await act(() => router.navigate('/b'));
    expect(await screen.findByRole('heading', { name: 'b' })).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    y = 0;
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { name: 'a' })).toBeTruthy();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640);
  });

  it('tells its subscribers when the first screen has been shown', async () => {
    const router = createAppRouter([{ path: '/', element: <h1>a</h1> }], {
      initialEntries: ['/'],
    });
    const seen = vi.fn();
    router.subscribe((state) => seen(state.initialized));
    expect(router.state.initialized).toBe(false);
    await act(async () => {
      render(<RouterView router={router} />);
    });
    expect(router.state.initialized).toBe(true);
    expect(seen).toHaveBeenCalledWith(true);
  });
});
