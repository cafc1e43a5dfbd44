import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SimDetails } from '@alda/contract/schemas/provisioning';
import { fail, ok } from '@/test/fake-api';
import { joannesDetail, ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

const physical: SimDetails = {
  lineId: 'sub-joannes',
  phoneNumber: '214455',
  simType: 'physical',
  iccidMasked: '•••• •••• •••• 2207',
  esim: null,
  pendingOrderId: null,
  phoneBookVisible: false,
};

const esim: SimDetails = {
  ...physical,
  simType: 'esim',
  iccidMasked: null,
  esim: {
    activationCode: 'LPA:1$smdp.alda.fo$K2QF-7XWD-M4HA-9R3T',
    smdpAddress: 'smdp.alda.fo',
    matchingId: 'K2QF-7XWD-M4HA-9R3T',
    iosInstallUrl:
      'https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=LPA%3A1%24smdp.alda.fo%24K2QF-7XWD-M4HA-9R3T',
    installed: true,
  },
};

const manage = (sim: SimDetails, extra = {}) =>
  renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: ['/umsit-hald/214455'],
    api: {
      'GET /subscriptions/sub-joannes': () => ok(joannesDetail),
      'GET /subscriptions/sub-joannes/sim': () => ok(sim),
      ...extra,
    },
  });

describe('SIM on the manage screen (SPEC §1 "manage eSIM or physical SIM details and phone-book visibility")', () => {
  it('shows a physical SIM with its masked ICCID, and PIN and PUK only after the password', async () => {
    const app = await manage(physical, {
      'POST /subscriptions/sub-joannes/sim/secrets': () => ok({ pin: '4471', puk: '90318245' }),
    });
    const section = await screen.findByRole('region', { name: 'SIM-kort' });
    expect(within(section).getByText('Vanligt SIM-kort')).toBeTruthy();
    expect(within(section).getByText('•••• •••• •••• 2207')).toBeTruthy();
    expect(within(section).queryByText('4471')).toBeNull();

    await userEvent.click(within(section).getByRole('button', { name: 'Vís PIN og PUK' }));
    const dialog = await screen.findByRole('dialog');
    // Nothing is asked of the API before the password is given.
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/secrets')).toHaveLength(0);
    const password = within(dialog).getByLabelText('Loyniorð');
    expect(password.getAttribute('type')).toBe('password');
    await userEvent.type(password, 'Demo1234!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Vís' }));

    expect(await within(section).findByText('4471')).toBeTruthy();
    expect(within(section).getByText('90318245')).toBeTruthy();
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/secrets')[0]?.body).toEqual({
      password: 'Demo1234!',
    });
    await dialogClosed();
    await userEvent.click(within(section).getByRole('button', { name: 'Fjal PIN og PUK' }));
    expect(within(section).queryByText('4471')).toBeNull();
  });

  it('a wrong password shows the API message and no PIN', async () => {
    await manage(physical, {
      'POST /subscriptions/sub-joannes/sim/secrets': () => fail(422, 'CURRENT_PASSWORD_INCORRECT'),
    });
    const section = await screen.findByRole('region', { name: 'SIM-kort' });
    await userEvent.click(within(section).getByRole('button', { name: 'Vís PIN og PUK' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Loyniorð'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Vís' }));
    expect(await screen.findByText('Núverandi loyniorðið er skeivt.')).toBeTruthy();
    expect(within(section).queryByText('PIN', { selector: 'dt' })).toBeNull();
  });

  it('cancelling the password prompt asks the API nothing', async () => {
    const app = await manage(physical);
    const section = await screen.findByRole('region', { name: 'SIM-kort' });
    await userEvent.click(within(section).getByRole('button', { name: 'Vís PIN og PUK' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await dialogClosed();
    expect(app.api.callsTo('POST /subscriptions/sub-joannes/sim/secrets')).toHaveLength(0);
  });

  it('an eSIM has no PIN button; it leads to the install screen and to a new SIM', async () => {
    const app = await manage(esim);
    const section = await screen.findByRole('region', { name: 'SIM-kort' });
    expect(within(section).getByText('eSIM')).toBeTruthy();
    expect(within(section).getByText('Lagt inn')).toBeTruthy();
    expect(within(section).queryByRole('button', { name: 'Vís PIN og PUK' })).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Bílegg nýtt eSIM ella SIM-kort' }).getAttribute('href'),
    ).toBe('/sim-kort/sub-joannes/nytt-kort');
    await userEvent.click(screen.getByRole('link', { name: 'Legg eSIM inn' }));
    await waitFor(() =>
      expect(app.router.state.location.pathname).toBe('/sim-kort/sub-joannes/esim'),
    );
  });

  it('switches the number in or out of the phone book', async () => {
    const app = await manage(physical, {
      'PATCH /subscriptions/sub-joannes/phone-book': () =>
        ok({ ...physical, phoneBookVisible: true }),
    });
    const toggle = await screen.findByRole('switch', { name: 'Í telefonbókini' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await userEvent.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(app.api.callsTo('PATCH /subscriptions/sub-joannes/phone-book')[0]?.body).toEqual({
      phoneBookVisible: true,
    });
    expect(await screen.findByText('Nummarið er nú í telefonbókini.')).toBeTruthy();
  });

  it('a pending replacement links to its order instead of ordering another', async () => {
    await manage({ ...physical, pendingOrderId: 'order-sim' });
    const pending = await screen.findByRole('link', {
      name: 'Nýtt SIM er á veg – fylg bíleggingini',
    });
    expect(pending.getAttribute('href')).toBe('/menu/bilegingar/order-sim');
    expect(
      screen.queryByRole('link', { name: 'Bílegg nýtt SIM-kort ella skift til eSIM' }),
    ).toBeNull();
  });
});
