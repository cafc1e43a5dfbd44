import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { StaffRole } from '@alda/contract/schemas/staff';
import type { StaffOrderDetail } from '@alda/contract/schemas/staff-orders';
import { aSession, renderConsole, type Call, type Handler } from '@/test/render';
import { aFailedOrder, anOrder, aRejectedPort, ORDER_ID } from './fixtures';

const DETAIL = `/api/staff/orders/${ORDER_ID}`;

/** The staff API of one order; commands answer `after` (or what `answer` says). */
function api(
  order: StaffOrderDetail,
  answer?: (call: Call) => { status: number; body?: unknown } | undefined,
): Handler {
  let current = order;
  return (call) => {
    if (call.method === 'GET' && call.path === DETAIL)
      return { status: 200, body: { data: current } };
    if (call.method === 'POST' && call.path.startsWith(`${DETAIL}/`)) {
      const answered = answer?.(call);
      if (answered?.status === 200) current = (answered.body as { data: StaffOrderDetail }).data;
      return answered;
    }
    return undefined;
  };
}

function openOrder(role: StaffRole, order: StaffOrderDetail, handler: Handler = api(order)) {
  return renderConsole({ path: `/orders/${ORDER_ID}`, session: aSession(role), handler });
}

const COMMAND_BUTTONS = ['Ger næsta stig nú', 'Ger liðuga', 'Steðga', 'Royn aftur'];
const commandButton = (name: string) => screen.queryByRole('button', { name });
const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('the commands offered per state and role (issue 31 "Orders queue")', () => {
  it('provisioning, an order waiting for the network: advance, complete and fail; retry greyed with why', async () => {
    openOrder('provisioning', anOrder());
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Bílegging 55 78 13' }),
    ).toBeTruthy();
    for (const name of ['Ger næsta stig nú', 'Ger liðuga', 'Steðga'])
      expect(commandButton(name)?.hasAttribute('disabled'), name).toBe(false);
    const retry = commandButton('Royn aftur');
    expect(retry?.hasAttribute('disabled')).toBe(true);
    expect(retry?.getAttribute('aria-describedby')).toBeTruthy();
    const why = document.getElementById(retry?.getAttribute('aria-describedby') ?? '');
    expect(why?.textContent).toBe(
      'Bert ein steðgað bílegging ella ein avvíst flyting kann roynast aftur.',
    );
    // Not a rejected port: no correction form.
    expect(
      screen.queryByRole('heading', { name: 'Rætta SIM-kortnummarið fyri kundan' }),
    ).toBeNull();
  });

  it('provisioning, a failed order: retry and complete; advance and fail greyed, each saying why', async () => {
    openOrder('provisioning', aFailedOrder());
    await screen.findByRole('heading', { level: 1, name: 'Bílegging 55 78 13' });
    expect(commandButton('Royn aftur')?.hasAttribute('disabled')).toBe(false);
    expect(commandButton('Ger liðuga')?.hasAttribute('disabled')).toBe(false);
    expect(commandButton('Ger næsta stig nú')?.hasAttribute('disabled')).toBe(true);
    expect(commandButton('Steðga')?.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('Bíleggingin er steðgað: royn hana aftur fyrst.')).toBeTruthy();
    expect(screen.getByText('Bíleggingin er longu steðgað.')).toBeTruthy();
  });

  it("support, a rejected port: the provider's reason, the wait for the correction and the correction form — and no provisioning commands", async () => {
    openOrder('support', aRejectedPort());
    await screen.findByRole('heading', { level: 1, name: 'Bílegging 55 78 13' });
    for (const name of COMMAND_BUTTONS) expect(commandButton(name), name).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Boð til bíleggingina' })).toBeNull();
    const port = screen.getByRole('region', { name: 'Flyting av nummari' });
    expect(port.textContent).toContain('Hin veitarin avvísti flytingina 15.06.2026 11:00');
    expect(port.textContent).toContain(
      'SIM-kortnummarið passar ikki við tað, sum núverandi veitarin hevur skrásett.',
    );
    expect(port.textContent).toContain('Kota: PORT_SIMCARD_MISMATCH');
    expect(port.textContent).toContain('Vit bíða eftir, at kundin rættar SIM-kortnummarið.');
    expect(screen.getByRole('region', { name: 'Rætta SIM-kortnummarið fyri kundan' })).toBeTruthy();
  });

  it('provisioning sees the commands and the correction form on a rejected port; admin too', async () => {
    for (const role of ['provisioning', 'admin'] as const) {
      const view = openOrder(role, aRejectedPort());
      await screen.findByRole('heading', { level: 1, name: 'Bílegging 55 78 13' });
      for (const name of COMMAND_BUTTONS)
        expect(commandButton(name)?.hasAttribute('disabled'), `${role} ${name}`).toBe(false);
      expect(
        screen.getByRole('region', { name: 'Rætta SIM-kortnummarið fyri kundan' }),
      ).toBeTruthy();
      view.unmount();
    }
  });

  it("shows the customer's correction once entered, and who entered it", async () => {
    openOrder(
      'support',
      aRejectedPort({
        waitingFor: 'network',
        state: 'waiting-network',
        porting: {
          ...aRejectedPort().porting!,
          simcardNumber: '8942981111111147115',
          correction: {
            state: 'entered',
            simcardNumber: '8942981111111147115',
            at: '2026-06-15T10:05:00.000Z',
            by: 'customer',
          },
        },
        actions: {
          ...aRejectedPort().actions,
          'port-correction': { allowed: false, refusal: 'not-rejected' },
        },
      }),
    );
    const port = await screen.findByRole('region', { name: 'Flyting av nummari' });
    expect(port.textContent).toContain(
      'Kundin rættaði SIM-kortnummarið til 8942 9811 1111 1147 115.',
    );
    expect(port.textContent).toContain('Rættað 15.06.2026 11:05.');
    expect(screen.queryByRole('region', { name: 'Rætta SIM-kortnummarið fyri kundan' })).toBeNull();
  });

  it('the timeline names who did each step and why', async () => {
    openOrder(
      'provisioning',
      aRejectedPort({
        steps: [
          ...aRejectedPort().steps,
          {
            step: 'failed',
            at: '2026-06-15T11:00:00.000Z',
            actor: 'staff:anna@alda.fo',
            reasonCode: null,
            codeText: null,
            operatorReason: 'Mál 4711: kundin bað um tað',
          },
        ],
      }),
    );
    const timeline = await screen.findByRole('region', { name: 'Stig' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('Bílegging móttikin');
    expect(items[0]?.textContent).toContain('Gjørt av: Kundin');
    expect(items[3]?.textContent).toContain('Flytingin avvíst');
    expect(items[3]?.textContent).toContain('Orsøk: SIM-kortnummarið passar ikki');
    expect(items[4]?.textContent).toContain('Gjørt av: anna@alda.fo');
    expect(items[4]?.textContent).toContain('Orsøk givin av starvsfólki: Mál 4711');
  });
});

describe('an order the network failed (issue 43, ADR 0082)', () => {
  it("shows the network's own reason on the failed step and each service order with the state the OSS reports", async () => {
    const ossWords = 'SMDP_UNAVAILABLE: The SM-DP+ did not answer — Profile not reserved';
    const failed = aFailedOrder();
    openOrder('provisioning', {
      ...failed,
      stopReason: ossWords,
      steps: [
        ...failed.steps,
        {
          step: 'failed',
          at: '2026-06-15T11:00:00.000Z',
          actor: 'network',
          reasonCode: 'NETWORK_ORDER_FAILED',
          codeText: 'Netið kundi ikki gera hetta stigið.',
          operatorReason: ossWords,
        },
      ],
      networkOrders: [
        {
          externalId: `alda:order:${ORDER_ID}:esim_ready:0`,
          id: 'so-1001',
          call: 'prepareEsim',
          state: 'failed',
          errorCode: 'SMDP_UNAVAILABLE',
          reason: 'The SM-DP+ did not answer — Profile not reserved',
          createdAt: '2026-06-15T10:00:00.000Z',
          updatedAt: '2026-06-15T11:00:00.000Z',
        },
        {
          externalId: `alda:order:${ORDER_ID}:activate:0`,
          id: 'so-1002',
          call: 'activate',
          state: 'held',
          errorCode: null,
          reason: null,
          createdAt: '2026-06-15T10:30:00.000Z',
          updatedAt: '2026-06-15T10:31:00.000Z',
        },
      ],
    });
    const timeline = await screen.findByRole('region', { name: 'Stig' });
    const last = within(timeline).getAllByRole('listitem').at(-1);
    expect(last?.textContent).toContain('Gjørt av: Netið');
    expect(last?.textContent).toContain(`Orsøk frá netinum: ${ossWords}`);
    expect(last?.textContent).not.toContain('starvsfólki');
    const network = screen.getByRole('region', { name: 'Hjá netinum' });
    const orders = within(network).getAllByRole('listitem');
    expect(orders[0]?.textContent).toContain('eSIM-profilur');
    expect(orders[0]?.textContent).toContain('failed');
    expect(orders[0]?.textContent).toContain('so-1001');
    expect(orders[0]?.textContent).toContain(
      'Orsøk frá netinum: SMDP_UNAVAILABLE: The SM-DP+ did not answer',
    );
    expect(orders[1]?.textContent).toContain('Nummar í tænastu');
    expect(orders[1]?.textContent).toContain('held');
  });

  it('shows no network panel for an order of the simulator', async () => {
    openOrder('provisioning', anOrder());
    await screen.findByRole('region', { name: 'Stig' });
    expect(screen.queryByRole('region', { name: 'Hjá netinum' })).toBeNull();
  });
});

describe('the reason dialog of a command', () => {
  it('fail: says the customer sees the reason, and refuses an empty one without sending anything', async () => {
    const user = userEvent.setup();
    const { calls } = openOrder('provisioning', anOrder());
    await user.click(await screen.findByRole('button', { name: 'Steðga' }));
    const dialog = screen.getByRole('dialog', { name: 'Steðga bíleggingini?' });
    expect(dialog.textContent).toContain('Kundin sær hesa orsøkina á bíleggingini.');
    const reason = within(dialog).getByLabelText('Orsøk');
    expect(reason.getAttribute('aria-describedby')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Steðga bíleggingini' }));
    expect(within(dialog).getByText('Skriva eina orsøk (í minsta lagi 3 tekn).')).toBeTruthy();
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    await user.type(reason, 'ab');
    await user.click(within(dialog).getByRole('button', { name: 'Steðga bíleggingini' }));
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(posts(calls)).toEqual([]);
  });

  it('fail: sends the reason, shows progress on the button, then the result and the order as answered', async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let current = anOrder();
    const handler: Handler = async (call) => {
      if (call.method === 'POST' && call.path === `${DETAIL}/fail`) {
        await gate;
        current = aFailedOrder();
        return { status: 200, body: { data: current } };
      }
      return call.method === 'GET' && call.path === DETAIL
        ? { status: 200, body: { data: current } }
        : undefined;
    };
    const { calls } = openOrder('provisioning', anOrder(), handler);
    await user.click(await screen.findByRole('button', { name: 'Steðga' }));
    const dialog = screen.getByRole('dialog', { name: 'Steðga bíleggingini?' });
    await user.type(within(dialog).getByLabelText('Orsøk'), 'Mál 4711: netið vildi ikki');
    await user.click(within(dialog).getByRole('button', { name: 'Steðga bíleggingini' }));

    expect(await within(dialog).findByText('Sendir boðini…')).toBeTruthy();
    expect(
      within(dialog).getByRole('button', { name: 'Steðga bíleggingini' }).getAttribute('aria-busy'),
    ).toBe('true');
    release();
    expect(await screen.findByText('Bíleggingin er steðgað. Kundin sær orsøkina.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts(calls)).toEqual([
      expect.objectContaining({
        path: `${DETAIL}/fail`,
        body: { reason: 'Mál 4711: netið vildi ikki' },
      }),
    ]);
    // The order as the API answered it: failed, so retry is offered now.
    await waitFor(() => expect(commandButton('Royn aftur')?.hasAttribute('disabled')).toBe(false));
  });

  it('advance: the reason is optional (none sends {}), and the result names the step performed', async () => {
    const user = userEvent.setup();
    const moved = anOrder({ lastStep: 'number_moved', nextStep: 'active', upcoming: ['active'] });
    const { calls } = openOrder(
      'provisioning',
      anOrder(),
      api(anOrder(), () => ({ status: 200, body: { data: moved } })),
    );
    await user.click(await screen.findByRole('button', { name: 'Ger næsta stig nú' }));
    const dialog = screen.getByRole('dialog', { name: 'Ger næsta stig nú?' });
    expect(dialog.textContent).toContain('„Nummarið flutt“ verður gjørt nú');
    expect(dialog.textContent).toContain('Skrivar tú eina orsøk, sær kundin hana á bíleggingini.');
    expect(within(dialog).getByLabelText('Orsøk (um tú vilt)')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Ger næsta stig' }));
    expect(await screen.findByText('Næsta stig er gjørt: Nummarið flutt.')).toBeTruthy();
    expect(posts(calls)[0]).toMatchObject({ path: `${DETAIL}/advance`, body: {} });
  });

  it('retry of a rejected port: says the port is asked again with the number on the order, and that the reason is only audited', async () => {
    const user = userEvent.setup();
    openOrder('provisioning', aRejectedPort());
    await user.click(await screen.findByRole('button', { name: 'Royn aftur' }));
    const dialog = screen.getByRole('dialog', { name: 'Royn bíleggingina aftur?' });
    expect(dialog.textContent).toContain(
      'Biðið verður aftur um flytingina við SIM-kortnummarinum, sum stendur á bíleggingini (8942 9811 0000 0000 000).',
    );
    expect(dialog.textContent).toContain('Orsøkin verður bert skrásett í eftirlitsloggin.');
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("a refusal from the API (409) is shown in the dialog with the server's message, and the dialog stays", async () => {
    const user = userEvent.setup();
    openOrder(
      'provisioning',
      anOrder(),
      api(anOrder(), () => ({
        status: 409,
        body: {
          error: {
            code: 'STAFF_ACTION_NOT_ALLOWED',
            message: 'Hetta ber ikki til í hesi støðuni.',
          },
        },
      })),
    );
    await user.click(await screen.findByRole('button', { name: 'Ger liðuga' }));
    const dialog = screen.getByRole('dialog', { name: 'Ger bíleggingina liðuga?' });
    await user.type(within(dialog).getByLabelText('Orsøk'), 'Mál 12: SIM-kortið virkar');
    await user.click(within(dialog).getByRole('button', { name: 'Ger liðuga' }));
    expect(await within(dialog).findByText('Hetta ber ikki til í hesi støðuni.')).toBeTruthy();
  });
});

describe('the port correction for the customer', () => {
  it('checks the SIM card number as the app does, then sends it with the reason and says it is done', async () => {
    const user = userEvent.setup();
    const good = '8942981111111147115';
    const corrected = aRejectedPort({
      state: 'waiting-network',
      waitingFor: 'network',
      actions: {
        ...aRejectedPort().actions,
        'port-correction': { allowed: false, refusal: 'not-rejected' },
      },
    });
    const { calls } = openOrder(
      'support',
      aRejectedPort(),
      api(aRejectedPort(), () => ({ status: 200, body: { data: corrected } })),
    );
    const form = await screen.findByRole('region', { name: 'Rætta SIM-kortnummarið fyri kundan' });
    const iccid = within(form).getByLabelText('Rætta SIM-kortnummarið (ICCID)');
    await user.type(iccid, '8929800000000000001');
    await user.click(within(form).getByRole('button', { name: 'Goym rættingina' }));
    expect(
      within(form).getByText('Hetta er ikki eitt gilt SIM-kortnummar. Kanna tølini aftur.'),
    ).toBeTruthy();
    expect(within(form).getByText('Skriva eina orsøk (í minsta lagi 3 tekn).')).toBeTruthy();
    expect(posts(calls)).toEqual([]);

    await user.clear(iccid);
    await user.type(iccid, '8942 9811 1111 1147 115');
    await user.type(within(form).getByLabelText('Orsøk'), 'Samtala 881');
    await user.click(within(form).getByRole('button', { name: 'Goym rættingina' }));
    expect(
      await screen.findByText('SIM-kortnummarið er rættað. Biðið verður aftur um flytingina.'),
    ).toBeTruthy();
    expect(posts(calls)).toEqual([
      expect.objectContaining({
        path: `${DETAIL}/port-correction`,
        body: { simcardNumber: good, reason: 'Samtala 881' },
      }),
    ]);
  });
});
