import { z } from 'zod/mini';
import { staffReason } from './staff';

/*
 * The staff console's status messages (issue 31 "Status messages", SPEC §1, §4): what the native
 * app shows at resume, written in Faroese and English, shown from `activeFrom` (inclusive) until
 * `activeTo` (exclusive) — docs/decisions/0010-status-message-window.md. The console and the
 * operator command (`npm run operator -- status publish|end`) publish and end them through the
 * same operator service.
 */

/** Longest title and body of a status message (the app shows them in a small dialog). */
export const STATUS_TITLE_MAX_LENGTH = 200;
export const STATUS_BODY_MAX_LENGTH = 2000;

/**
 * Where a message stands at the server's time:
 * - `scheduled`: its window starts later;
 * - `active`: inside its window — `POST /api/status` answers it now;
 * - `ended`: its window has closed (ended by hand or at its `activeTo`).
 */
export const STATUS_MESSAGE_STATES = ['scheduled', 'active', 'ended'] as const;
export const statusMessageState = z.enum(STATUS_MESSAGE_STATES);
export type StatusMessageState = z.infer<typeof statusMessageState>;

const at = z.iso.datetime({ offset: true });

export const staffStatusMessage = z.object({
  id: z.uuid(),
  titleFo: z.string(),
  titleEn: z.string(),
  bodyFo: z.string(),
  bodyEn: z.string(),
  /** Shown from (inclusive); null = always was. */
  activeFrom: z.nullable(at),
  /** Shown until (exclusive); null = until ended. */
  activeTo: z.nullable(at),
  createdAt: at,
  state: statusMessageState,
  /**
   * Staff marked it urgent (issue 64): it was also written as a notification to every customer
   * with a push device and pushed when it starts, even in their quiet hours.
   */
  urgent: z.boolean(),
});
export type StaffStatusMessage = z.infer<typeof staffStatusMessage>;

/** GET /api/staff/status-messages: the latest messages, newest first, each with its state now. */
export const staffStatusMessageList = z.object({ items: z.array(staffStatusMessage) });
export type StaffStatusMessageList = z.infer<typeof staffStatusMessageList>;

const title = z.string({ error: 'REQUIRED' }).check(z.trim(), z.minLength(1, 'REQUIRED'));
const body = z.string({ error: 'REQUIRED' }).check(z.trim(), z.minLength(1, 'REQUIRED'));

/**
 * POST /api/staff/status-messages: a new message in both languages. `activeFrom` absent or in the
 * past means now; `activeTo` absent means until ended, else it must lie after the start (400
 * STATUS_WINDOW_INVALID). The reason (a ticket or change reference) is optional. `urgent` (default
 * false) also pushes it, at its start, to every customer with a push device who has not switched
 * status pushes off — also in their quiet hours, so it is for outages and the like (issue 64).
 */
export const staffStatusPublishRequest = z.object({
  titleFo: title.check(z.maxLength(STATUS_TITLE_MAX_LENGTH, 'TOO_LONG')),
  titleEn: title.check(z.maxLength(STATUS_TITLE_MAX_LENGTH, 'TOO_LONG')),
  bodyFo: body.check(z.maxLength(STATUS_BODY_MAX_LENGTH, 'TOO_LONG')),
  bodyEn: body.check(z.maxLength(STATUS_BODY_MAX_LENGTH, 'TOO_LONG')),
  activeFrom: z.optional(z.nullable(at)),
  activeTo: z.optional(z.nullable(at)),
  reason: z.optional(staffReason),
  urgent: z._default(z.boolean(), false),
});
export type StaffStatusPublishRequest = z.infer<typeof staffStatusPublishRequest>;
export type StaffStatusPublishInput = z.input<typeof staffStatusPublishRequest>;

/** POST /api/staff/status-messages/:id/end: ends the message now; a reason is required. */
export const staffStatusEndRequest = z.object({ reason: staffReason });
export type StaffStatusEndRequest = z.infer<typeof staffStatusEndRequest>;

export const staffStatusMessageParams = z.object({ id: z.uuid() });
