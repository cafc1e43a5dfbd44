import { z } from 'zod/mini';
import { id, isoDateTime } from './common';

/**
 * The development outbox (`GET /dev/outbox.json`, only when the API runs with DEMO_MODE): the
 * SMS and e-mails the built-in outbox adapters "sent" instead of a gateway or mail server.
 * End-to-end tests read one-time codes and reset links from it. Not part of the customer API.
 */
export const outboxChannel = z.enum(['sms', 'email']);
export type OutboxChannel = z.infer<typeof outboxChannel>;

export const outboxMessage = z.object({
  id,
  channel: outboxChannel,
  /** An e-mail address, or an SMS number as sent: `298` + 6 digits. */
  to: z.string(),
  /** E-mail subject; null for SMS. */
  subject: z.nullable(z.string()),
  text: z.string(),
  /** HTML body of an e-mail; null for SMS. */
  html: z.nullable(z.string()),
  createdAt: isoDateTime,
});
export type OutboxMessage = z.infer<typeof outboxMessage>;

/** `?to=` filters by recipient: an e-mail address (any case) or `298xxxxxx` (6 digits work too). */
export const outboxQuery = z.object({
  to: z.optional(z.string().check(z.trim(), z.maxLength(254))),
});

/** Answer of `GET /dev/outbox.json`: newest first, at most 100. */
export const outboxList = z.array(outboxMessage);
