import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { usePartnerApp, type PartnerAppDeps } from '@/features/partner-app/partner-app';
import { appConfig } from '@/shared/config/app-config';
import type { Platform } from '@/shared/native/platform';
import { ModalHost } from '@/shared/ui/modal/modal-host';
import { demoUser } from '@/test/fixtures';
import { createTestContext, Providers, renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

function renderLogoButton(deps: PartnerAppDeps) {
  function LogoButton() {
    const open = usePartnerApp(deps);
    return (
      <button type="button" onClick={() => void open()}>
        logo
      </button>
    );
  }
  const ctx = createTestContext();
  render(
    <Providers ctx={ctx}>
      <>
        <LogoButton />
        <ModalHost />
      </>
    </Providers>,
  );
  return { ...ctx, user: userEvent.setup() };
}

const nativeDeps = (platform: Platform, installed: boolean): PartnerAppDeps => ({
  isNative: () => platform !== 'web',
  platform: () => platform,
  canOpenApp: vi.fn(async () => installed),
  openApp: vi.fn(async () => true),
  openUrl: vi.fn(async () => {}),
});

describe('footer (SPEC §2)', () => {
  it('links Home, My user and Menu and marks the current one', async () => {
    const { user, router } = { ...(await renderApp({ user: demoUser })), user: userEvent.setup() };
    const nav = await screen.findByRole('navigation', { name: 'Høvuðsvalmynd' });
    expect(screen.getByRole('link', { name: 'Heim' }).getAttribute('aria-current')).toBe('page');
    await user.click(screen.getByRole('link', { name: 'Valmynd' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/menu'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Valmynd' })).toBeTruthy();
    expect(nav.isConnected).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Mín brúkari' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Mín brúkari' })).toBeTruthy();
  });

  it('opens the change-app modal with store links from the logo button on the web (SPEC §2)', async () => {
    const { user } = { ...(await renderApp({ user: demoUser })), user: userEvent.setup() };
    await user.click(await screen.findByRole('button', { name: 'Opna 2 fyri 1' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Tvey fyri eitt');
    expect(screen.getByRole('link', { name: 'Heinta í App Store' }).getAttribute('href')).toBe(
      appConfig.partnerApp.appStoreUrl,
    );
    expect(screen.getByRole('link', { name: 'Heinta á Google Play' }).getAttribute('href')).toBe(
      appConfig.partnerApp.playStoreUrl,
    );
    await user.click(screen.getByRole('button', { name: 'Ikki nú' }));
    await dialogClosed();
  });
});

describe('partner app button in the native shell (SPEC §2)', () => {
  it('opens the installed 2-for-1 app by URL scheme on iOS', async () => {
    const deps = nativeDeps('ios', true);
    const { user } = renderLogoButton(deps);
    await user.click(screen.getByRole('button', { name: 'logo' }));
    await waitFor(() =>
      expect(deps.openApp).toHaveBeenCalledWith(appConfig.partnerApp.iosUrlScheme),
    );
    expect(deps.canOpenApp).toHaveBeenCalledWith(appConfig.partnerApp.iosUrlScheme);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens it by package name on Android', async () => {
    const deps = nativeDeps('android', true);
    const { user } = renderLogoButton(deps);
    await user.click(screen.getByRole('button', { name: 'logo' }));
    await waitFor(() =>
      expect(deps.openApp).toHaveBeenCalledWith(appConfig.partnerApp.androidPackage),
    );
  });

  it('shows the change-app modal with the store of this platform when the app is not installed', async () => {
    const deps = nativeDeps('android', false);
    const { user } = renderLogoButton(deps);
    await user.click(screen.getByRole('button', { name: 'logo' }));
    const link = await screen.findByRole('link', { name: 'Heinta á Google Play' });
    expect(screen.queryByRole('link', { name: 'Heinta í App Store' })).toBeNull();
    expect(deps.openApp).not.toHaveBeenCalled();
    // In the shell the store opens outside the app's WebView.
    await user.click(link);
    expect(deps.openUrl).toHaveBeenCalledWith(appConfig.partnerApp.playStoreUrl);
  });
});
