import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The usage feed's service token for the e2e API (playwright.config.ts passes it as
 * USAGE_FEED_TOKEN). Not a secret: the API runs in memory for the test run only.
 */
export const E2E_USAGE_FEED_TOKEN =
  process.env.E2E_USAGE_FEED_TOKEN ?? 'e2e-usage-feed-token-not-a-secret-0001';

let serial = 0;

/**
 * Posts one rated usage record to the feed as a charging system would (POST /api/usage/records
 * with the service token); a fresh record id each call.
 */
export async function postUsage(
  request: APIRequestContext,
  record: { phoneNumber: string; usedMb: number; kind?: 'domestic' | 'eu' },
) {
  serial += 1;
  const response = await request.post('/api/usage/records', {
    headers: { Authorization: `Bearer ${E2E_USAGE_FEED_TOKEN}` },
    data: {
      records: [
        {
          recordId: `e2e-${Date.now()}-${serial}`,
          phoneNumber: record.phoneNumber,
          usedMb: record.usedMb,
          kind: record.kind ?? 'domestic',
          occurredAt: new Date().toISOString(),
        },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { data: { accepted: number } };
  expect(body.data.accepted).toBe(1);
}

/** Signs in through the API and answers the `Authorization` header of that customer. */
async function signInByApi(request: APIRequestContext, email: string, password: string) {
  const login = await request.post('/api/auth/email-login', { data: { email, password } });
  expect(login.status()).toBe(200);
  const { accessToken } = ((await login.json()) as { data: { accessToken: string } }).data;
  return { Authorization: `Bearer ${accessToken}` };
}

/** Signs in through the API and answers GET /api/subscriptions for that customer. */
export async function subscriptionsOf(request: APIRequestContext, email: string, password: string) {
  const answer = await request.get('/api/subscriptions', {
    headers: await signInByApi(request, email, password),
  });
  expect(answer.status()).toBe(200);
  return (
    (await answer.json()) as {
      data: {
        currentAccount: {
          currentMember: { id: string; phoneNumber: string; dataRemaining: { domestic: number } };
          otherMembers: { id: string; phoneNumber: string }[];
        } | null;
      };
    }
  ).data;
}

/** Signs in through the API and answers GET /api/subscriptions/{lineId}/usage-history (ADR 0066). */
export async function usageHistoryOf(
  request: APIRequestContext,
  email: string,
  password: string,
  lineId: string,
) {
  const answer = await request.get(`/api/subscriptions/${lineId}/usage-history`, {
    headers: await signInByApi(request, email, password),
  });
  expect(answer.status()).toBe(200);
  return (
    (await answer.json()) as {
      data: { days: { date: string; domesticMb: number; euMb: number }[] };
    }
  ).data;
}
