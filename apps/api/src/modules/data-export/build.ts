import { zipSync, strToU8 } from 'fflate';
import { formatDate, todayInFaroe } from '@alda/contract/format/date';
import type { Locale } from '@alda/contract/locale';
import { maskIccid } from '@alda/contract/rules/iccid';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema/users';
import { createActionService } from '../actions/service';
import { notificationTexts } from '../notifications/notify';
import { toUserDto } from '../users/dto';
import { exportReadme } from './readme';
import {
  findLines,
  findNotifications,
  findOrders,
  findOwnedAccounts,
  findPayments,
  findReceipts,
  findSessions,
  findBills,
  findPasskeys,
  findSupportConversations,
  findSupportImages,
  findUser,
  supportImageFile,
} from './repo';

/**
 * What an area's reader gets: whose data, in which language, and the reads several areas share
 * (the user, the accounts they own, their lines), each made once per export.
 */
export interface AreaContext {
  db: Db;
  userId: string;
  locale: Locale;
  user: () => Promise<UserRow>;
  ownedAccounts: () => ReturnType<typeof findOwnedAccounts>;
  lines: () => ReturnType<typeof findLines>;
}

/** The context of one export's areas. */
export function areaContext(db: Db, userId: string, locale: Locale): AreaContext {
  const once = <T>(read: () => Promise<T>) => {
    let result: Promise<T> | undefined;
    return () => (result ??= read());
  };
  const ownedAccounts = once(() => findOwnedAccounts(db, userId));
  return {
    db,
    userId,
    locale,
    user: once(async () => {
      const user = await findUser(db, userId);
      if (!user) throw new ExportUserGone();
      return user;
    }),
    ownedAccounts,
    lines: once(async () =>
      findLines(
        db,
        userId,
        (await ownedAccounts()).map((a) => a.id),
      ),
    ),
  };
}

/** One JSON file of the ZIP: its name and how its content is read. */
export interface ExportArea {
  file: string;
  read: (ctx: AreaContext) => Promise<unknown>;
  /** Files of the area besides its JSON (the images of support conversations), by ZIP path. */
  files?: (ctx: AreaContext) => Promise<Map<string, Uint8Array>>;
}

/** A SIM card's number as the app shows it: its last four digits (`•••• •••• •••• 1234`). */
const masked = (iccid: string | null) => (iccid === null ? null : maskIccid(iccid));

/** The user has vanished since asking (deleted): nothing is exported. */
export class ExportUserGone extends Error {}

/**
 * The areas of a data export (issue 32, GDPR Art. 15/20), in the order the worker prepares them.
 * Each reads only what the README says it holds; secrets (password hash, PIN/PUK, eSIM codes,
 * token hashes, the provider's references) are never read.
 */
export const EXPORT_AREAS: readonly ExportArea[] = [
  {
    file: 'profile.json',
    async read({ user }) {
      // The user as the app has it; the choices are consents.json's.
      const { showInPhoneBook: _book, usageAlerts: _alerts, ...profile } = toUserDto(await user());
      return profile;
    },
  },
  {
    file: 'lines.json',
    async read({ userId, lines }) {
      return (await lines()).map(({ userId: lineUser, msisdn, iccid, ...line }) => ({
        ...line,
        phoneNumber: msisdn,
        iccid: masked(iccid),
        /** `own`: the user's own number; `family_member`: a number on an account they own. */
        relation: lineUser === userId ? 'own' : 'family_member',
      }));
    },
  },
  {
    file: 'plans.json',
    async read({ ownedAccounts }) {
      return (await ownedAccounts()).map(({ planNameFo, planNameEn, ...account }) => ({
        ...account,
        planName: planNameFo === null ? null : { fo: planNameFo, en: planNameEn },
      }));
    },
  },
  {
    file: 'orders.json',
    async read({ db, userId }) {
      const rows = await findOrders(db, userId);
      return rows.map(({ simcardNumber, ...order }) => ({
        ...order,
        simcardNumber: masked(simcardNumber),
      }));
    },
  },
  {
    file: 'payments.json',
    read: ({ db, userId }) => findPayments(db, userId),
  },
  {
    file: 'receipts.json',
    read: ({ db, userId }) => findReceipts(db, userId),
  },
  {
    file: 'notifications.json',
    async read({ db, userId, locale }) {
      const rows = await findNotifications(db, userId);
      return rows.map((n) => ({
        id: n.id,
        type: n.type,
        ...notificationTexts(n.type, n.params, locale),
        link: n.link,
        createdAt: n.createdAt,
        readAt: n.readAt,
      }));
    },
  },
  {
    file: 'activity.json',
    async read({ db, userId, locale }) {
      // The log's own sentences, as the app shows them; all of it, page by page.
      const actions = createActionService({ db });
      const all: unknown[] = [];
      for (let page = 0; ; page += 1) {
        const { data, meta } = await actions.page(userId, { page, perPage: 100 }, locale);
        all.push(...data);
        if (!meta.hasMore) return all;
      }
    },
  },
  {
    file: 'support.json',
    read: ({ db, userId }) => findSupportConversations(db, userId),
    async files({ db, userId }) {
      const images = await findSupportImages(db, userId);
      return new Map(images.map((i) => [supportImageFile(i.id, i.contentType), i.bytes]));
    },
  },
  {
    file: 'sessions.json',
    read: ({ db, userId }) => findSessions(db, userId),
  },
  {
    file: 'passkeys.json',
    read: ({ db, userId }) => findPasskeys(db, userId),
  },
  {
    file: 'bills.json',
    read: ({ db, userId }) => findBills(db, userId),
  },
  {
    file: 'consents.json',
    async read({ user, lines }) {
      const dto = toUserDto(await user());
      return {
        // Registration requires accepting the terms and privacy policy; no separate record is kept.
        termsAcceptedAt: dto.createdAt,
        showInPhoneBook: dto.showInPhoneBook,
        phoneBookPerLine: (await lines()).map((l) => ({
          phoneNumber: l.msisdn,
          phoneBookVisible: l.phoneBookVisible,
        })),
        usageAlerts: dto.usageAlerts,
        // Alda sends no marketing; there is no marketing consent to record.
        marketing: null,
      };
    },
  },
];

/** The ZIP's name: `alda-data-<Faroese date>.zip`. */
export const exportFilename = (readyAt: Date) => `alda-data-${todayInFaroe(readyAt)}.zip`;

/** The ZIP of the areas' JSON (pretty, UTF-8) and the README in the export's language. */
export function zipExport(
  files: ReadonlyMap<string, unknown>,
  locale: Locale,
  madeAt: Date,
): Buffer {
  const entries: Record<string, Uint8Array> = {
    'README.md': strToU8(exportReadme(locale, formatDate(madeAt))),
  };
  for (const [name, content] of files) {
    // Images go in as they are; everything else is a JSON file.
    entries[name] =
      content instanceof Uint8Array ? content : strToU8(`${JSON.stringify(content, null, 2)}\n`);
  }
  return Buffer.from(zipSync(entries, { level: 6, mtime: madeAt }));
}
