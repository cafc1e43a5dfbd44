import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LineControls } from '@alda/contract/schemas/controls';
import { fail, ok } from '@/test/fake-api';
import { ownerData, sunneva, sunnevaDetail } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const running: LineControls = { dataPaused: false, dataPausedAt: null, purchaseApproval: false };
const paused: LineControls = {
  dataPaused: true,
  dataPausedAt: '2026-06-15T12:00:00.000Z',
  purchaseApproval: false,
};

function detailWith(controls: LineControls) {
  return { ...sunnevaDetail, member: { ...sunneva, controls } };
}

async function openMember(options: {
  controls: LineControls;
  patch?: () => Response | Promise<Response>;
}) {
  let current = options.controls;
  const app = await renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: ['/familju-limur/sub-sunneva'],
    api: {
      'GET /subscriptions/sub-sunneva': () => ok(detailWith(current)),
      'PATCH /subscriptions/sub-sunneva/controls': async (request) => {
        if (options.patch) return options.patch();
        current = { ...current, ...(request.body as Partial<LineControls>) };
        if (current.dataPaused && !current.dataPausedAt) current.dataPausedAt = paused.dataPausedAt;
        if (!current.dataPaused) current.dataPausedAt = null;
        return ok(current);
      },
    },
  });
  const region = await screen.findByRole('region', { name: 'Stýring av nummarinum' });
  return { app, region };
}

describe('owner controls on the family member screen (issue 16.3, ADR 0068)', () => {
  it('issue 16.3: the owner pauses the member’s data after a confirm that says what happens; the screen then shows it paused with a resume', async () => {
    const { app, region } = await openMember({ controls: running });
    expect(within(region).getByText('Í gongd')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(within(region).getByRole('button', { name: 'Steðga mobildata' }));
    const dialog = await screen.findByRole('dialog', { name: 'Steðga mobildatanum?' });
    expect(dialog.textContent).toContain(
      'Sunneva kann ikki brúka mobildata á 21 44 56, fyrr enn tú setur tað í gongd aftur. Ringingar og SMS virka framvegis.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Steðga' }));
    await waitFor(() =>
      expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/controls')).toHaveLength(1),
    );
    expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/controls')[0]?.body).toEqual({
      dataPaused: true,
    });
    expect(await screen.findByText('Mobildatað hjá Sunneva er steðgað.')).toBeTruthy();
    const after = await screen.findByRole('region', { name: 'Stýring av nummarinum' });
    expect(
      await within(after).findByRole('button', { name: 'Set mobildata í gongd aftur' }),
    ).toBeTruthy();
    expect(within(after).getByText('Steðgað síðani 15.06.2026')).toBeTruthy();
    // The header says it too.
    expect(screen.getAllByText('Data steðgað').length).toBeGreaterThan(0);
  });

  it('issue 16.3: cancelling the confirm changes nothing', async () => {
    const { app, region } = await openMember({ controls: running });
    const user = userEvent.setup();
    await user.click(within(region).getByRole('button', { name: 'Steðga mobildata' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Angra' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/controls')).toHaveLength(0);
  });

  it('issue 16.3: resuming is one tap; a refusal by the network shows the API’s message', async () => {
    const { app, region } = await openMember({
      controls: paused,
      patch: () =>
        fail(
          503,
          'NETWORK_UNAVAILABLE',
          'Netið svaraði ikki. Einki er broytt; royn aftur um eina løtu.',
        ),
    });
    await userEvent.click(
      within(region).getByRole('button', { name: 'Set mobildata í gongd aftur' }),
    );
    expect(
      await screen.findByText(
        'Vit kundu ikki broyta stýringina. Netið svaraði ikki. Einki er broytt; royn aftur um eina løtu.',
      ),
    ).toBeTruthy();
    expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/controls')[0]?.body).toEqual({
      dataPaused: false,
    });
  });

  it('issue 16.3: the approval switch saves at once and says what it means', async () => {
    const { app, region } = await openMember({ controls: running });
    const toggle = within(region).getByRole('switch', {
      name: 'Keyp av eykapakkum krevja góðkenning',
    });
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(region.textContent).toContain(
      'Keypir Sunneva ein eykapakka, fært tú eina umbøn og kanst góðkenna ella avvísa hana.',
    );
    await userEvent.click(toggle);
    await waitFor(() =>
      expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/controls')[0]?.body).toEqual({
        purchaseApproval: true,
      }),
    );
    expect(await screen.findByText('Keyp hjá Sunneva krevja nú góðkenning.')).toBeTruthy();
  });

  it("issue 16.3: the controls are not offered on the owner's own number (the API sends none for it)", async () => {
    await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/familju-limur/sub-sunneva'],
      api: {
        'GET /subscriptions/sub-sunneva': () =>
          ok({ ...sunnevaDetail, member: { ...sunneva, controls: undefined } }),
      },
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Stýring av nummarinum' })).toBeNull();
  });

  it('issue 16.3: the controls are not offered to someone who does not own the account', async () => {
    await renderApp({
      user: demoUser,
      data: ownerData,
      initialEntries: ['/familju-limur/sub-sunneva'],
      api: {
        'GET /subscriptions/sub-sunneva': () => ok({ ...detailWith(running), isOwner: false }),
      },
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Sunneva Joensen' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Stýring av nummarinum' })).toBeNull();
  });
});
