import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, ok } from '@/test/fake-api';
import {
  joannesDetail,
  joensenFamily,
  ownerData,
  ownerSubscriptions,
  sunnevaDetail,
} from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

/** The API's state of the EU package, switched by PATCH /subscriptions. */
function euApi(initial = false, patch?: () => Response) {
  let on = initial;
  return {
    'GET /subscriptions': () =>
      ok({ ...ownerSubscriptions, currentAccount: { ...joensenFamily, euPackage: on } }),
    'GET /subscriptions/sub-joannes': () => ok({ ...joannesDetail, euPackage: on }),
    'GET /subscriptions/sub-sunneva': () => ok({ ...sunnevaDetail, euPackage: on }),
    'PATCH /subscriptions': (request: { body: unknown }) => {
      if (patch) return patch();
      on = (request.body as { euPackage: boolean }).euPackage;
      return ok({ ...joensenFamily, euPackage: on });
    },
  };
}

describe('EU package on the manage-subscription screen (SPEC §1 roaming, §7 PATCH subscriptions)', () => {
  it('shows the switch with its price a month; on after a confirm, then off again, each time refreshed from the API', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/umsit-hald/214455'],
      api: euApi(false),
    });
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'ES-pakki' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('+49 kr. um mánaðin · 50 GB í ES')).toBeTruthy();

    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Legg ES-pakkan afturat?' });
    expect(dialog.textContent).toContain('ES-pakkin kostar +49 kr. um mánaðin');
    await user.click(within(dialog).getByRole('button', { name: 'Legg afturat' }));
    await waitFor(() =>
      expect((screen.getByRole('switch', { name: 'ES-pakki' }) as HTMLInputElement).checked).toBe(
        true,
      ),
    );
    expect(await screen.findByText('ES-pakkin er lagdur afturat.')).toBeTruthy();
    const [patch] = app.api.callsTo('PATCH /subscriptions');
    expect(patch?.body).toEqual({ euPackage: true });
    // The owner's own number on the account says which account (query `line`).
    expect(patch?.url).toContain('line=214455');

    await user.click(screen.getByRole('switch', { name: 'ES-pakki' }));
    const off = await screen.findByRole('dialog', { name: 'Tak ES-pakkan burtur?' });
    await user.click(within(off).getByRole('button', { name: 'Tak burtur' }));
    await waitFor(() =>
      expect((screen.getByRole('switch', { name: 'ES-pakki' }) as HTMLInputElement).checked).toBe(
        false,
      ),
    );
    expect(app.api.callsTo('PATCH /subscriptions').map((r) => r.body)).toEqual([
      { euPackage: true },
      { euPackage: false },
    ]);
  });

  it('cancelling the confirm changes nothing', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/umsit-hald/214455'],
      api: euApi(false),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'ES-pakki' }));
    const dialog = await screen.findByRole('dialog', { name: 'Legg ES-pakkan afturat?' });
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await dialogClosed();
    expect((screen.getByRole('switch', { name: 'ES-pakki' }) as HTMLInputElement).checked).toBe(
      false,
    );
    expect(app.api.callsTo('PATCH /subscriptions')).toHaveLength(0);
  });

  it('SPEC §8 updating a subscription: its own message, and the switch stays as it was', async () => {
    await renderApp({
      user: demoUser,
      locale: 'en',
      data: ownerData,
      initialEntries: ['/umsit-hald/214455'],
      api: euApi(false, () => fail(422, 'PACKAGE_NOT_AVAILABLE')),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'EU package' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add the EU package?' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('We could not update the subscription.')).toBeTruthy();
    await dialogClosed();
    expect((screen.getByRole('switch', { name: 'EU package' }) as HTMLInputElement).checked).toBe(
      false,
    );
  });

  it('is not offered when the plan has no EU package', async () => {
    await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/umsit-hald/214455'],
      api: {
        'GET /subscriptions/sub-joannes': () =>
          ok({ ...joannesDetail, plan: { ...joannesDetail.plan!, euPackage: null } }),
      },
    });
    expect(await screen.findByText('Jóannes Joensen')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'ES-pakki' })).toBeNull();
  });
});
