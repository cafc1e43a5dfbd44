import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fail } from '@/test/fake-api';
import { demoUser, subscriptionsWithPlan } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('unrecoverable 401 (SPEC §4 "Session", §8)', () => {
  it('resets all state and sends the user to login when the refresh is refused', async () => {
    // A support message waiting for a connection (issue 46) is the user's too.
    localStorage.setItem(`alda.support.outbox.${demoUser.id}`, '[]');
    const app = await renderApp({
      user: demoUser,
      initialEntries: ['/menu/treytir'],
      data: { subscriptions: subscriptionsWithPlan },
      api: {
        'GET /content/terms': () => fail(401, 'UNAUTHORIZED'),
        'POST /auth/refresh-token': () => fail(401, 'UNAUTHORIZED'),
      },
    });
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/rita-inn'));
    expect(await screen.findByRole('heading', { name: 'Hvussu vilt tú rita inn?' })).toBeTruthy();
    expect(app.session.getState().user).toBeNull();
    expect(app.queryClient.getQueryData(['account', 'subscriptions'])).toBeUndefined();
    expect(await app.storage.get('accessToken')).toBeNull();
    expect(localStorage.getItem(`alda.support.outbox.${demoUser.id}`)).toBeNull();
    expect(app.toasts.getToasts().map((t) => t.message)).toEqual(['Tú mást rita inn aftur.']);
  });
});
