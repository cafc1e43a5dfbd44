import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { Link, Outlet } from 'react-router';
import { ModalHost } from '@/shared/ui/modal/modal-host';
import { renderApp } from '@/test/render';
import { useAndroidBackButton } from './use-android-back-button';
import { dialogClosed } from '@/test/dialogs';

/** A fake Capacitor App 'backButton' registration that the test can press. */
function fakeBackButton() {
  let listener: ((event: { canGoBack: boolean }) => void) | null = null;
  const subscribe = (callback: (event: { canGoBack: boolean }) => void) => {
    listener = callback;
    return () => {
      listener = null;
    };
  };
  const press = () => act(() => listener?.({ canGoBack: true }));
  return { subscribe, press, registered: () => listener !== null };
}

async function setup() {
  const back = fakeBackButton();
  const exit = vi.fn(async () => {});
  function Layout() {
    useAndroidBackButton(back.subscribe, exit);
    return (
      <>
        <Outlet />
        <ModalHost />
      </>
    );
  }
  const app = await renderApp({
    routes: () => [
      {
        element: <Layout />,
        hydrateFallbackElement: <p>…</p>,
        children: [
          { path: '/', element: <Link to="/menu">menu</Link> },
          { path: '/menu', element: <h1>menu screen</h1> },
        ],
      },
    ],
  });
  await screen.findByRole('link', { name: 'menu' });
  // The listener is registered by an effect, which may run a moment after the first paint.
  await waitFor(() => expect(back.registered()).toBe(true));
  return { ...app, back, exit };
}

describe('Android back button (SPEC §2)', () => {
  it('closes the open modal when it is dismissable (SPEC §2)', async () => {
    const { back, modals } = await setup();
    let result!: Promise<boolean>;
    act(() => {
      result = modals.confirm({ title: 'Ert tú viss/ur?' });
    });
    back.press();
    await expect(result).resolves.toBe(false);
    await dialogClosed();
  });

  it('leaves a non-dismissable modal open and does not navigate (SPEC §2)', async () => {
    const { back, modals, router, exit } = await setup();
    await act(() => router.navigate('/menu'));
    act(() => void modals.alert({ title: 'Dagfør appina', dismissable: false }));
    back.press();
    expect(screen.getByRole('dialog', { name: 'Dagfør appina' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/menu');
    expect(exit).not.toHaveBeenCalled();
  });

  it('goes back when no modal is open (SPEC §2)', async () => {
    const { back, router, user } = await setupWithUser();
    await user.click(screen.getByRole('link', { name: 'menu' }));
    await screen.findByRole('heading', { name: 'menu screen' });
    back.press();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('leaves the app on the first screen', async () => {
    const { back, exit } = await setup();
    back.press();
    expect(exit).toHaveBeenCalledTimes(1);
  });
});

async function setupWithUser() {
  const { default: userEvent } = await import('@testing-library/user-event');
  const app = await setup();
  return { ...app, user: userEvent.setup() };
}
