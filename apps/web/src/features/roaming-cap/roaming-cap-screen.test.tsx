import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RoamingCap } from '@alda/contract/schemas/roaming';
import { ok } from '@/test/fake-api';
import { ownerData, sunneva, sunnevaDetail } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { dialogClosed } from '@/test/dialogs';

const month: RoamingCap = {
  capOere: 75_000,
  defaultCapOere: 37_300,
  chargedOere: 32_800,
  chargedMb: 3_280,
  pricePerMbOere: 10,
  stopped: false,
  stoppedAt: null,
};

async function openCap() {
  let current = month;
  const app = await renderApp({
    user: demoUser,
    data: ownerData,
    initialEntries: ['/utreidsluloft/sub-sunneva'],
    api: {
      'GET /subscriptions/sub-sunneva': () =>
        ok({ ...sunnevaDetail, member: { ...sunneva, roaming: current } }),
      'PATCH /subscriptions/sub-sunneva/roaming-cap': (request) => {
        current = { ...current, capOere: (request.body as { capOere: number | null }).capOere };
        return ok(current);
      },
    },
  });
  await screen.findByText('328 kr. av 750 kr.');
  return { ...app, user: userEvent.setup() };
}

describe('roaming spend cap screen (issue 33 §2, ADR 0078)', () => {
  it('lowers the cap at once, without a confirmation', async () => {
    const app = await openCap();
    await app.user.click(screen.getByRole('radio', { name: '373 kr. (vanligt loft)' }));
    await app.user.click(screen.getByRole('button', { name: 'Goym loftið' }));
    await waitFor(() =>
      expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/roaming-cap')).toHaveLength(1),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/roaming-cap')[0]?.body).toEqual({
      capOere: 37_300,
      confirmed: true,
    });
  });

  it('removing the cap names the risk first; cancelling sends nothing', async () => {
    const app = await openCap();
    await app.user.click(screen.getByRole('radio', { name: 'Einki loft' }));
    await app.user.click(screen.getByRole('button', { name: 'Goym loftið' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toMatch(/einki mark/i);
    await app.user.click(screen.getByRole('button', { name: 'Angra' }));
    await dialogClosed();
    expect(app.api.callsTo('PATCH /subscriptions/sub-sunneva/roaming-cap')).toHaveLength(0);
  });
});
