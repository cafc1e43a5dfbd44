import { expect, type Page } from '@playwright/test';

/** A message of the outbox (`outboxMessage` of `@alda/contract/schemas/dev-outbox`). */
export interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  /** An e-mail address, or `298` + 6 digits. */
  to: string;
  subject: string | null;
  text: string;
  html: string | null;
  createdAt: string;
}

/**
 * The demo outbox (`GET /dev/outbox.json`, DEMO_MODE only): the SMS and e-mails the API "sent".
 * Journeys read one-time codes and reset links from it, as a customer reads their phone.
 */
export async function outbox(page: Page, to: string): Promise<OutboxMessage[]> {
  const response = await page.request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}`);
  expect(response.ok(), `GET /dev/outbox.json?to=${to}`).toBe(true);
  const body = (await response.json()) as { data: OutboxMessage[] };
  return body.data;
}

/** Waits for the newest message to `to` that `pick` finds something in, and returns that. */
async function newest(page: Page, to: string, pick: (m: OutboxMessage) => string | null) {
  let found: string | null = null;
  await expect
    .poll(
      async () => {
        const [latest] = await outbox(page, to);
        found = latest ? pick(latest) : null;
        return found;
      },
      { message: `a message to ${to}`, timeout: 10_000 },
    )
    .not.toBeNull();
  return found as unknown as string;
}

/** The one-time code of the newest SMS to a 6-digit number (sent to 298 + the number). */
export function latestPinCode(page: Page, phoneNumber: string): Promise<string> {
  return newest(page, `298${phoneNumber}`, (m) =>
    m.channel === 'sms' ? (/\b(\d{6})\b/.exec(m.text)?.[1] ?? null) : null,
  );
}

/** Path and query of the reset link in the newest e-mail to `email`: `/nytt-loyniord?token=…`. */
export async function latestResetLink(page: Page, email: string): Promise<string> {
  const link = await newest(page, email, (m) =>
    m.channel === 'email'
      ? (/https?:\/\/\S+\/nytt-loyniord\?token=[^\s"<]+/.exec(m.text)?.[0] ?? null)
      : null,
  );
  // The link names the public address of the app; the journey stays on the origin under test.
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
