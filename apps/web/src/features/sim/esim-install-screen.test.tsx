import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import QRCode from 'qrcode';
import type { SimDetails } from '@alda/contract/schemas/provisioning';
import { overridePlatform } from '@/shared/native/platform';
import { isIosDevice } from '@/shared/sim/platform';
import { ok } from '@/test/fake-api';
import { ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { qrModulesPath } from './qr-symbol';

const activationCode = 'LPA:1$smdp.alda.fo$P8LN-3VCE-Z6JB-2KQY';
const esim: SimDetails = {
  lineId: 'sub-joannes',
  phoneNumber: '214455',
  simType: 'esim',
  iccidMasked: null,
  esim: {
    activationCode,
    smdpAddress: 'smdp.alda.fo',
    matchingId: 'P8LN-3VCE-Z6JB-2KQY',
    iosInstallUrl: `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${encodeURIComponent(activationCode)}`,
    installed: false,
  },
  pendingOrderId: null,
  phoneBookVisible: true,
};

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

function useUserAgent(ua: string) {
  vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(ua);
}

const open = (sim: SimDetails = esim) =>
  renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: ['/sim-kort/sub-joannes/esim'],
    api: { 'GET /subscriptions/sub-joannes/sim': () => ok(sim) },
  });

// The screen and the encoder are lazy chunks: load them once before the clock of each test runs.
beforeAll(async () => {
  await import('./esim-install-screen');
  await import('qrcode');
}, 20_000);

afterEach(() => {
  vi.restoreAllMocks();
  overridePlatform(null);
});

describe('eSIM install screen (SPEC §1 "manage eSIM or physical SIM details and phone-book visibility")', () => {
  it('draws the QR code of the activation code LPA:1$<SM-DP+>$<matching id>', async () => {
    useUserAgent(ANDROID_UA);
    await open();
    const qr = await screen.findByRole(
      'img',
      { name: /^QR-kota við eSIM til 21\s?44\s?55$/ },
      { timeout: 4000 },
    );
    const drawn = qr.querySelector('path')?.getAttribute('d');
    // The same symbol the encoder makes of the activation code, module for module.
    const expected = qrModulesPath(
      QRCode.create(activationCode, { errorCorrectionLevel: 'M' }).modules,
    );
    expect(drawn).toBe(expected);
    expect(drawn).not.toBe(
      qrModulesPath(QRCode.create('LPA:1$other$X', { errorCorrectionLevel: 'M' }).modules),
    );
  });

  it('on an iPhone offers the one-tap install link, and not the typing', async () => {
    useUserAgent(IPHONE_UA);
    await open();
    const link = await screen.findByRole('link', { name: 'Legg eSIM inn á iPhone' });
    expect(link.getAttribute('href')).toBe(esim.esim?.iosInstallUrl);
    expect(screen.queryByText('smdp.alda.fo')).toBeNull();
    expect(await screen.findByRole('img', { name: /QR-kota/ })).toBeTruthy();
  });

  it('on Android no iOS link: the SM-DP+ address and activation code to copy', async () => {
    useUserAgent(ANDROID_UA);
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(window.navigator, 'clipboard', {
      value: { writeText },
      configurable: true,
    });
    await open();
    const manual = (await screen.findByRole('heading', { name: 'Skriva inn við hond' }))
      .parentElement as HTMLElement;
    expect(screen.queryByRole('link', { name: 'Legg eSIM inn á iPhone' })).toBeNull();
    expect(within(manual).getByText('smdp.alda.fo')).toBeTruthy();
    expect(within(manual).getByText('P8LN-3VCE-Z6JB-2KQY')).toBeTruthy();
    await userEvent.click(within(manual).getByRole('button', { name: 'Avrita SM-DP+-adressa' }));
    await userEvent.click(within(manual).getByRole('button', { name: 'Avrita Virkjanarkota' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2));
    expect(writeText.mock.calls).toEqual([['smdp.alda.fo'], ['P8LN-3VCE-Z6JB-2KQY']]);
  });

  it('a number without an eSIM says so', async () => {
    await open({ ...esim, simType: 'physical', esim: null, iccidMasked: '•••• •••• •••• 0019' });
    expect(await screen.findByText('Einki eSIM at leggja inn')).toBeTruthy();
  });

  it('knows an iPhone in the native shell as well as in Safari', () => {
    overridePlatform('ios');
    expect(isIosDevice()).toBe(true);
    overridePlatform('android');
    expect(isIosDevice()).toBe(false);
    overridePlatform(null);
    useUserAgent(IPHONE_UA);
    expect(isIosDevice()).toBe(true);
  });
});
