import type { Locale } from '@alda/contract/locale';
import type {
  MarkAllAsReadResponse,
  NotificationItem,
  NotificationsQuery,
  NotificationsResponse,
} from '@alda/contract/schemas/notifications';
import type { Db } from '../../db/client';
import type { NotificationRow } from '../../db/schema/data-transfers';
import { AppError } from '../../errors';
import {
  bumpUserVersions,
  readUserVersion,
  type UserVersionReader,
} from '../versions/change-versions';
import { countNotifications, findNotificationsPage, markAllRead, markRead } from './repo';
import { notificationTexts } from './texts';

export interface NotificationServiceDeps {
  db: Db;
  now: () => Date;
  /** Change versions from the instance's memory (ADR 0057); by default a database read. */
  versions?: UserVersionReader;
}

export function toNotificationItem(row: NotificationRow, locale: Locale): NotificationItem {
  const texts = notificationTexts(row.type, row.params, locale);
  return {
    id: row.id,
    type: row.type,
    title: texts.title,
    body: texts.body,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
    link: row.link,
  };
}

/** Notifications (SPEC §7): list with unread count, mark one or all read. */
export function createNotificationService(deps: NotificationServiceDeps) {
  const { db, now } = deps;
  return {
    /** The change version the ETag of GET /api/notifications is built from (one-row read). */
    version: (userId: string) => deps.versions?.version(userId) ?? readUserVersion(db, userId),
    /** The same version when memory holds it (no promise); undefined when it must be read. */
    knownVersion: (userId: string) => deps.versions?.known?.(userId),

    async list(
      userId: string,
      query: NotificationsQuery,
      locale: Locale,
    ): Promise<NotificationsResponse> {
      const [rows, counts] = await Promise.all([
        findNotificationsPage(db, userId, query.page * query.perPage, query.perPage),
        countNotifications(db, userId),
      ]);
      return {
        totalUnread: counts.unread,
        items: rows.map((r) => toNotificationItem(r, locale)),
        page: query.page,
        perPage: query.perPage,
        total: counts.total,
      };
    },

    async markAsRead(userId: string, id: string, locale: Locale): Promise<NotificationItem> {
      const row = await db.transaction(async (tx) => {
        const result = await markRead(tx, userId, id, now());
        if (result.changed) await bumpUserVersions(tx, [userId]);
        return result.row;
      });
      if (!row) throw new AppError('NOT_FOUND', { detail: 'no such notification of the caller' });
      return toNotificationItem(row, locale);
    },

    async markAllAsRead(userId: string): Promise<MarkAllAsReadResponse> {
      const updated = await db.transaction(async (tx) => {
        const n = await markAllRead(tx, userId, now());
        if (n > 0) await bumpUserVersions(tx, [userId]);
        return n;
      });
      return { updated, totalUnread: 0 };
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
