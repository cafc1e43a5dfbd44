import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LineProtection } from '@alda/contract/schemas/number-protection';
import { dialogClosed } from '@/test/dialogs';
import { fail, ok } from '@/test/fake-api';
import { ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

// 14:30 on 3 June, Faroese summer time (UTC+1).
const UNLOCK_AT = '2025-06-03T13:30:00.000Z';

const base: LineProtection = {
  lineId: 'sub-joannes',
  phoneNumber: '214455',
  lock: { state: 'unlocked', unlockAt: null, requestedAt: null },
  unlockDelayMinutes: 24 * 60,
  simChangedAt: '2025-05-20T10:00:00.000Z',
  portOutCode: null,
};
const locked: LineProtection = {
  ...base,
  lock: { state: 'locked', unlockAt: null, requestedAt: null },
};
const unlocking: LineProtection = {
  ...base,
  lock: { state: 'unlocking', unlockAt: UNLOCK_AT, requestedAt: '2025-06-02T13:30:00.000Z' },
};

const PATH = '/subscriptions/sub-joannes/protection';

const open = (api = {}, user = demoUser) =>
  renderApp({
    user,
    data: ownerData,
    initialEntries: ['/nummarlas/sub-joannes'],
    api: { [`GET ${PATH}`]: () => ok(base), ...api },
  });

beforeAll(async () => {
  await import('./number-lock-screen');
  await import('./unlock-cancel-screen');
}, 20_000);

describe('the number lock screen (issue 32, ADR 0076)', () => {
  it('unlocked: says what is allowed, and "Læs nú" locks at once', async () => {
    const app = await open({ [`POST ${PATH}/lock`]: () => ok(locked) });
    expect(await screen.findByText(/Nummarið kann flytast til annað felag/)).toBeTruthy();
    expect(screen.getByText('Ólæst')).toBeTruthy();
    expect(screen.getByText('20.05.2025')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Læs nú' }));
    expect(
      await screen.findByText('Flyting til annað felag og SIM-skifti verða noktað.'),
    ).toBeTruthy();
    expect(screen.getByText('Læst')).toBeTruthy();
    expect(app.api.callsTo(`POST ${PATH}/lock`)).toHaveLength(1);
  });

  it("tells the server's own cooling-off: minutes when it is not whole hours (NUMBER_UNLOCK_DELAY_H)", async () => {
    await open({
      [`GET ${PATH}`]: () => ok({ ...locked, unlockDelayMinutes: 1 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Lat upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lat nummarið upp?' });
    expect(within(dialog).getByText(/eftir 1 minutt\./)).toBeTruthy();
  });

  it('locked: unlocking asks for the password, tells the 24-hour wait, then shows when it opens', async () => {
    const app = await open({
      [`GET ${PATH}`]: () => ok(locked),
      [`POST ${PATH}/unlock`]: () => ok(unlocking),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Lat upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lat nummarið upp?' });
    expect(within(dialog).getByText(/eftir 24 tímar/)).toBeTruthy();
    expect(app.api.callsTo(`POST ${PATH}/unlock`)).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Loyniorð'), 'Demo1234!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Lat upp' }));
    await dialogClosed();
    expect(app.api.callsTo(`POST ${PATH}/unlock`)[0]?.body).toEqual({ password: 'Demo1234!' });
    expect(
      await screen.findByText(
        'Nummarið verður latið upp kl. 14:30 tann 03.06. Til tá er tað enn læst.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Steðga upplæsing' })).toBeTruthy();
  });

  it('a wrong password is said in the dialog, which stays open', async () => {
    await open({
      [`GET ${PATH}`]: () => ok(locked),
      [`POST ${PATH}/unlock`]: () => fail(422, 'PASSWORD_INCORRECT'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Lat upp' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lat nummarið upp?' });
    await userEvent.type(within(dialog).getByLabelText('Loyniorð'), 'Skeivt-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Lat upp' }));
    expect(await within(dialog).findByText('Loyniorðið er skeivt.')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it('unlocking: one tap cancels, and the number stays locked', async () => {
    const app = await open({
      [`GET ${PATH}`]: () => ok(unlocking),
      [`DELETE ${PATH}/unlock`]: () => ok(locked),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Steðga upplæsing' }));
    expect(await screen.findByText('Upplæsingin er steðgað. Nummarið er enn læst.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Lat upp' })).toBeTruthy();
    expect(app.api.callsTo(`DELETE ${PATH}/unlock`)).toHaveLength(1);
  });

  it('a port-out code is shown once with its rules; afterwards only its expiry', async () => {
    const code = {
      code: 'ABCD-EFG-HJK',
      createdAt: '2025-06-01T10:00:00.000Z',
      expiresAt: '2025-07-01T10:00:00.000Z',
    };
    await open({ [`POST /subscriptions/sub-joannes/port-out-code`]: () => ok(code) });
    expect(await screen.findByText('Eingin flytikoda er virkin.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Ger flytikodu' }));
    expect(await screen.findByText('ABCD-EFG-HJK')).toBeTruthy();
    expect(
      screen.getByText(/virkar í 30 dagar, til 01.07.2025, og kann bara brúkast eina ferð/),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Avrita flytikoduna' })).toBeTruthy();
    // A new code asks first: the old one stops working.
    await userEvent.click(screen.getByRole('button', { name: 'Ger nýggja flytikodu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ger nýggja flytikodu?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await dialogClosed();
  });

  it('an active code is shown by its expiry only; a refusal in words', async () => {
    await open({
      [`GET ${PATH}`]: () =>
        ok({
          ...locked,
          portOutCode: {
            createdAt: '2025-06-01T10:00:00.000Z',
            expiresAt: '2025-07-01T10:00:00.000Z',
          },
        }),
      [`POST /subscriptions/sub-joannes/port-out-code`]: () => fail(409, 'NUMBER_LOCKED'),
    });
    expect(await screen.findByText(/Ein flytikoda virkar til 01.07.2025/)).toBeTruthy();
    expect(screen.getByText(/Meðan nummarið er læst, verður flyting noktað/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Ger nýggja flytikodu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ger nýggja flytikodu?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ger nýggja' }));
    expect(await screen.findByText(/Nummarið er læst. Lat tað upp í appini/)).toBeTruthy();
  });

  it('a failed load says so and retries', async () => {
    let calls = 0;
    await open({
      [`GET ${PATH}`]: () => (++calls === 1 ? fail(500, 'INTERNAL') : ok(locked)),
    });
    expect(await screen.findByText('Vit kundu ikki vísa nummarlásið.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Royn aftur/ }));
    expect(await screen.findByText('Læst')).toBeTruthy();
  });
});

describe("the unlock e-mail's one-tap cancel (ADR 0076)", () => {
  it('works without signing in: one button, then the number stays locked', async () => {
    const app = await renderApp({
      user: null,
      initialEntries: ['/nummarlas-stedga?token=tok-1'],
      api: {
        'POST /number-unlocks/cancel': () => ok({ phoneNumber: '214455', state: 'locked' }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Steðga upplæsingini' }));
    expect(await screen.findByText('Nummarið er enn læst')).toBeTruthy();
    expect(screen.getByText(/214455|21 44 55/)).toBeTruthy();
    expect(app.api.callsTo('POST /number-unlocks/cancel')[0]?.body).toEqual({ token: 'tok-1' });
    expect(app.router.state.location.pathname).toBe('/nummarlas-stedga');
  });

  it('a bad link is said in words', async () => {
    await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/nummarlas-stedga?token=old'],
      api: { 'POST /number-unlocks/cancel': () => fail(410, 'UNLOCK_LINK_INVALID') },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Steðga upplæsingini' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Leinkjan er ikki longur gildug: upplæsingin, hon var send fyri, bíðar ikki longur. Lat appina upp fyri at síggja lásið.',
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Steðga upplæsingini' })).toBeTruthy(),
    );
  });
});
