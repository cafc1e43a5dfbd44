import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { fail, ok, quietPolls } from '@/test/fake-api';
import { makeMember, ownerSubscriptions } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp, type TestAppOptions } from '@/test/render';

/** Jóannes (214455): 30 GB left, has given 1 GB of 10 GB this month → may give up to 9 GB. */
const data = { subscriptions: ownerSubscriptions };

const withMember = (overrides: Parameters<typeof makeMember>[0]): SubscriptionsResponse => ({
  ...ownerSubscriptions,
  currentAccount: { ...ownerSubscriptions.currentAccount!, currentMember: makeMember(overrides) },
});

async function open(path: string, options: TestAppOptions = {}) {
  const app = await renderApp({
    user: demoUser,
    data,
    initialEntries: [path],
    ...options,
    api: { ...quietPolls, ...options.api },
  });
  await screen.findByRole('radiogroup');
  return app;
}

describe('give data (SPEC §5 limits)', () => {
  it('explains the limits, offers amounts within the maximum and gives after confirmation', async () => {
    const app = await open('/gev-data', {
      api: {
        'POST /data-transfers': (request) =>
          ok({
            id: 't-1',
            kind: 'gift',
            status: 'approved',
            requester: { phoneNumber: '214455', name: 'Jóannes' },
            recipient: { phoneNumber: '551122', name: null },
            dataAmount: (request.body as { dataAmount: number }).dataAmount,
            createdAt: '2026-11-20T10:00:00.000Z',
            decidedAt: '2026-11-20T10:00:00.000Z',
          }),
      },
    });
    expect(screen.getByText(/Tú kanst geva upp í 9 GB nú/)).toBeTruthy();
    const amounts = within(screen.getByRole('radiogroup')).getAllByRole('radio');
    expect(amounts.map((a) => a.textContent)).toEqual([
      '100 MB',
      '250 MB',
      '500 MB',
      '1 GB',
      '2 GB',
      '3 GB',
      '5 GB',
    ]);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Nummarið, tú gevur til'), '+298 55 11 22');
    await user.click(screen.getByRole('radio', { name: '2 GB' }));
    await user.click(screen.getByRole('button', { name: 'Halt fram' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('2 GB verður flutt til 55 11 22');
    await user.click(within(dialog).getByRole('button', { name: 'Gev' }));
    expect(await screen.findByText('Tú gavst 55 11 22 2 GB.')).toBeTruthy();
    const [sent] = app.api.callsTo('POST /data-transfers');
    expect(sent?.body).toEqual({
      kind: 'gift',
      fromPhoneNumber: '214455',
      phoneNumber: '551122',
      dataAmount: 2048,
    });
    expect(sent?.headers['idempotency-key']).toBeTruthy();
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/'));
  });

  it('only offers what is left of the monthly allowance, and says why when nothing is', async () => {
    await open('/gev-data', {
      data: {
        subscriptions: withMember({
          id: 's',
          phoneNumber: '214455',
          givenData: { current: 10240, max: 10240 },
        }),
      },
    });
    expect(screen.getByText('Tú kanst ikki geva meira data hendan mánaðin.')).toBeTruthy();
    expect(screen.queryAllByRole('radio')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Halt fram' }).hasAttribute('disabled')).toBe(true);
  });

  it('refuses your own number before sending', async () => {
    const app = await open('/gev-data');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Nummarið, tú gevur til'), '214455');
    await user.click(screen.getByRole('radio', { name: '1 GB' }));
    await user.click(screen.getByRole('button', { name: 'Halt fram' }));
    expect(
      await screen.findByText('Tú kanst ikki biðja um data frá tínum egna nummari.'),
    ).toBeTruthy();
    expect(app.api.callsTo('POST /data-transfers')).toHaveLength(0);
  });
});

describe('request data', () => {
  it('shows the API refusal under the number, in English', async () => {
    await open('/bidja-um-data', {
      locale: 'en',
      api: { 'POST /data-transfers': () => fail(404, 'NUMBER_NOT_FOUND') },
    });
    expect(screen.getByText(/You can ask for up to 5 GB/)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Number to ask'), '999999');
    await user.click(screen.getByRole('radio', { name: '500 MB' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send' }),
    );
    expect(await screen.findByText("The number you're searching for does not exist")).toBeTruthy();
  });

  it('shows a gift refusal from the API as a message', async () => {
    await open('/gev-data', {
      locale: 'en',
      api: { 'POST /data-transfers': () => fail(409, 'GIVE_LIMIT_REACHED') },
    });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Number to give to'), '551122');
    await user.click(screen.getByRole('radio', { name: '1 GB' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Give' }),
    );
    expect(await screen.findByText('You cannot give more data this month.')).toBeTruthy();
  });
});
