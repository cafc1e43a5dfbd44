import { z } from 'zod/mini';
import { NOTIFICATIONS_PAGE_SIZE } from '../constants';
import { id, isoDateTime } from './common';

/** What a notification is about; the app picks an icon by it. */
export const notificationType = z.enum([
  'data_request',
  'data_received',
  'order_completed',
  'payment',
  'package',
  'subscription',
  'system',
  /** A line passed 80 % or 100 % of its month's data (ADR 0066). */
  'usage_alert',
  /** The account owner paused or resumed the mobile data of the reader's number (ADR 0068). */
  'data_paused',
  'data_resumed',
  /** A member asks the owner to buy an extra package; the owner declined one (ADR 0068). */
  'package_request',
  'package_request_declined',
  /** Number protection (ADR 0076): an unlock waiting (with its time and a cancel link), done. */
  'number_unlock_scheduled',
  'number_unlocked',
  /** A SIM change or new eSIM of the reader's number (ADR 0076). */
  'sim_changed',
  /** A port-out of the reader's number was asked for: refused or accepted (ADR 0076). */
  'port_out',
  /** The reader's data export is ready to download (ADR 0076). */
  'data_export_ready',
  /** A number's roaming charges reached 80 % or 100 % of its spend cap (ADR 0078). */
  'roaming_cap',
  /** The support desk answered one of the reader's conversations (issue 46). */
  'support_answer',
]);
export type NotificationType = z.infer<typeof notificationType>;

/** One notification (SPEC §3 leaves the item fields open). Texts are in the requested language. */
export const notificationItem = z.object({
  id,
  type: notificationType,
  title: z.string(),
  body: z.string(),
  createdAt: isoDateTime,
  /** Null while unread. */
  readAt: z.nullable(isoDateTime),
  /** App path to open, e.g. '/frabodanir' or '/umsit-hald/211234'; null when none. */
  link: z.nullable(z.string().check(z.startsWith('/'))),
});
export type NotificationItem = z.infer<typeof notificationItem>;

/** GET /api/notifications?page=0&perPage=15 (SPEC §7; query values arrive as strings). */
export const notificationsQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.nonnegative()), 0),
  perPage: z._default(
    z.coerce.number().check(z.int(), z.positive(), z.lte(100)),
    NOTIFICATIONS_PAGE_SIZE,
  ),
});
export type NotificationsQuery = z.output<typeof notificationsQuery>;

/** Answer of GET /api/notifications: newest first. */
export const notificationsResponse = z.object({
  totalUnread: z.int().check(z.nonnegative()),
  items: z.array(notificationItem),
  page: z.int().check(z.nonnegative()),
  perPage: z.int().check(z.positive()),
  /** Number of notifications in all pages. */
  total: z.int().check(z.nonnegative()),
});
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

/** PATCH /api/notifications/{id}/mark-as-read: the notification, now read. */
export const markAsReadResponse = notificationItem;

/** PATCH /api/notifications/mark-all-as-read. */
export const markAllAsReadResponse = z.object({
  /** How many were unread before. */
  updated: z.int().check(z.nonnegative()),
  totalUnread: z.literal(0),
});
export type MarkAllAsReadResponse = z.infer<typeof markAllAsReadResponse>;
