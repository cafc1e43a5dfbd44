import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { LineHandover, SubscriptionsResponse } from '@alda/contract/schemas/subscriptions';
import {
  individualPlan,
  joensenFamily,
  makeMember,
  memberSubscriptions,
  ownerSubscriptions,
  plans,
} from '@/test/account-fixtures';
import { ok, quietPolls } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const offer: LineHandover = {
  id: 'h-1',
  phoneNumber: '214456',
  status: 'pending',
  from: { firstname: 'Jóannes', lastname: 'Joensen' },
  to: { firstname: 'Rannvá', lastname: 'Joensen' },
  planId: 'plan-individual-10',
  planName: '10 GB',
  monthlyPrice: { net: 11920, vat: 2980, gross: 14900 },
  isReceiver: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  orderId: null,
};

const solo = makeMember({ id: 'sub-solo', phoneNumber: '557700', planId: individualPlan.planId });
const individual: SubscriptionsResponse = {
  ...ownerSubscriptions,
  currentAccount: {
    ...joensenFamily,
    id: 'acc-solo',
    type: 'individual_plan',
    planId: individualPlan.planId,
    members: [solo],
    otherMembers: [],
    currentMember: solo,
    family: null,
  },
};

const open = (subscriptions: SubscriptionsResponse, handovers: LineHandover[] = []) =>
  renderApp({
    user: demoUser,
    initialEntries: ['/menu'],
    data: { subscriptions, plans, orders: [] },
    api: { ...quietPolls, 'GET /line-handovers': () => ok(handovers) },
  });

const linkTo = (name: string) => screen.queryByRole('link', { name });

describe('menu: moving my own number and numbers offered to me (ADR 0056)', () => {
  it('a member of a family they do not own may move to their own plan or to a family plan', async () => {
    await open(memberSubscriptions);
    const own = await screen.findByRole('link', { name: 'Flyt mítt nummar til egið hald' });
    expect(own.getAttribute('href')).toBe('/flyt-til-einstaklingahald');
    expect(linkTo('Flyt mítt nummar til eitt familjuhald')?.getAttribute('href')).toBe(
      '/flyt-til-familjuhald',
    );
  });

  it('on an individual plan only the move to a family plan is offered', async () => {
    await open(individual);
    expect(
      await screen.findByRole('link', { name: 'Flyt mítt nummar til eitt familjuhald' }),
    ).toBeTruthy();
    expect(linkTo('Flyt mítt nummar til egið hald')).toBeNull();
  });

  it('the owner of the family is offered neither', async () => {
    await open(ownerSubscriptions);
    await screen.findByRole('link', { name: /Treytir/ });
    expect(linkTo('Flyt mítt nummar til egið hald')).toBeNull();
    expect(linkTo('Flyt mítt nummar til eitt familjuhald')).toBeNull();
  });

  it('lists the pending hand-overs to me, each linking to its hand-over screen; my own offers are not listed', async () => {
    await open(ownerSubscriptions, [
      offer,
      { ...offer, id: 'h-2', isReceiver: false, phoneNumber: '214457' },
    ]);
    const row = await screen.findByRole('link', {
      name: 'Jóannes Joensen vil geva tær 21 44 56',
    });
    expect(row.getAttribute('href')).toBe('/yvirtaka/h-1');
    expect(screen.queryByText(/21 44 57/)).toBeNull();
  });
});
