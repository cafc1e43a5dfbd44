import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import { ok } from '@/test/fake-api';
import {
  memberSubscriptions,
  ownerData,
  sunneva,
  sunnevaPackageRequest,
} from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const pausedMember: SubscriptionsResponse = {
  ...memberSubscriptions,
  currentAccount: memberSubscriptions.currentAccount && {
    ...memberSubscriptions.currentAccount,
    currentMember: {
      ...sunneva,
      controls: {
        dataPaused: true,
        dataPausedAt: '2026-06-15T12:00:00.000Z',
        purchaseApproval: false,
      },
    },
  },
};

const asked = sunnevaPackageRequest({ isApprover: true });

describe('home and the owner controls (issue 16.3, ADR 0068)', () => {
  it('issue 16.3: a member whose data the owner paused is told so on the data card, with what still works and what to do', async () => {
    await renderApp({
      user: { ...demoUser, firstname: 'Sunneva' },
      data: { ...ownerData, subscriptions: pausedMember },
    });
    const card = await screen.findByRole('region', { name: 'Títt data' });
    expect(card.textContent).toContain('Mobildatað er steðgað');
    expect(card.textContent).toContain(
      'Eigarin av kontuni hevur steðgað mobildatanum á hesum nummarinum. Tú kanst framvegis ringja og senda SMS.',
    );
  });

  it('issue 16.3: nothing is said while data runs', async () => {
    await renderApp({ user: demoUser, data: { ...ownerData, subscriptions: memberSubscriptions } });
    const card = await screen.findByRole('region', { name: 'Títt data' });
    expect(card.textContent).not.toContain('Mobildatað er steðgað');
  });

  it('issue 16.3: the owner sees a member’s package request on home — approve leads into the purchase screen, decline asks first and tells the member', async () => {
    let pending = [asked];
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: {
        'GET /package-requests': () => ok(pending),
        'DELETE /package-requests/req-1': () => {
          pending = [];
          return ok({ ...asked, status: 'declined', decidedAt: '2026-11-20T11:00:00.000Z' });
        },
      },
    });
    const inbox = await screen.findByRole('region', { name: 'Umbønir um eykapakkar' });
    expect(inbox.textContent).toContain('Sunneva Joensen biður um 5 GB til 21 44 56 (50,00 kr.).');
    expect(within(inbox).getByRole('link', { name: 'Góðkenn og gjald' }).getAttribute('href')).toBe(
      '/keyp-pakka?nummar=214456&pakki=pkg-5&umbon=req-1',
    );
    const user = userEvent.setup();
    await user.click(within(inbox).getByRole('button', { name: 'Avvís' }));
    const dialog = await screen.findByRole('dialog', { name: 'Avvís umbønina?' });
    expect(dialog.textContent).toContain('Sunneva Joensen fær boð um, at tú ikki keypir 5 GB.');
    await user.click(within(dialog).getByRole('button', { name: 'Avvís' }));
    expect(await screen.findByText('Umbønin er avvíst. Sunneva Joensen fær boð.')).toBeTruthy();
    expect(app.api.callsTo('DELETE /package-requests/req-1')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Umbønir um eykapakkar' })).toBeNull(),
    );
  });
});
