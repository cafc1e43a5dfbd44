import { DATA_EXPORT_LINK_DAYS } from '@alda/contract/rules/number-protection';
import type { Locale } from '@alda/contract/locale';
import type { DataExport } from '@alda/contract/schemas/number-protection';
import type { FastifyBaseLogger } from 'fastify';
import type { EmailSender } from '../../adapters/email/email-sender';
import type { BackgroundTasks } from '../../background';
import type { Db } from '../../db/client';
import { uniqueViolationOf } from '../../db/errors';
import { AppError } from '../../errors';
import { isUuid } from '../../uuid';
import { insertActions } from '../actions/log';
import { insertNotifications } from '../notifications/notify';
import { POLICIES } from '../rate-limits/policies';
import type { RateLimiter } from '../rate-limits/service';
import { bumpUserVersions } from '../versions/change-versions';
import {
  EXPORT_AREAS,
  ExportUserGone,
  areaContext,
  exportFilename,
  zipExport,
  type ExportArea,
} from './build';
import { createExportLinks, unixSeconds } from './links';
import { exportReadyEmail } from './messages';
import {
  advanceExport,
  claimNextExport,
  failExport,
  findExport,
  findExportsOfUser,
  findUser,
  finishExport,
  hasPendingExport,
  insertExport,
  markDownloaded,
  removeExpiredFiles,
  type DataExportInfo,
} from './repo';

/** The profile screen, where the app lists the exports (the notification's link). */
export const PROFILE_PATH = '/min-brukari';

/** Exports the list shows (the newest). */
export const EXPORTS_LISTED = 5;

/** How long a worker holds a preparing export without a step before another may take it over. */
export const EXPORT_LEASE_MS = 10 * 60 * 1000;

const PENDING_INDEX = 'data_exports_one_pending_uq';

export interface DataExportServiceDeps {
  db: Db;
  now: () => Date;
  log: FastifyBaseLogger;
  limiter: RateLimiter;
  email: EmailSender;
  background: BackgroundTasks;
  /** LINK_SECRET: the key of the signed download links. */
  linkSecret: string;
  /** Public address (APP_URL), no trailing slash: the links' origin. */
  appUrl: string;
  /** What the ZIP holds (EXPORT_AREAS; tests make one fail). */
  areas?: readonly ExportArea[];
}

export interface RoundResult {
  prepared: number;
  failed: number;
  expired: number;
}

/**
 * "Your data" (issue 32 part 5; GDPR Art. 15 access, Art. 20 portability): a customer asks for a
 * ZIP of everything we keep about them, a worker prepares it area by area, and a signed link
 * (in the app and by e-mail) downloads it for DATA_EXPORT_LINK_DAYS days; then the file is removed.
 */
export function createDataExportService(deps: DataExportServiceDeps) {
  const { db, now, log } = deps;
  const areas = deps.areas ?? EXPORT_AREAS;
  const links = createExportLinks(deps.linkSecret, deps.appUrl);
  const pending = () => new AppError('DATA_EXPORT_PENDING');
  const dead = (detail: string) => new AppError('DATA_EXPORT_LINK_INVALID', { detail });

  function toDto(row: DataExportInfo, at: Date): DataExport {
    const live = row.state === 'ready' && row.hasFile && !!row.expiresAt && row.expiresAt > at;
    const state = row.state === 'ready' && !live ? 'expired' : row.state;
    // While preparing, expires_at is the worker's lease, not the link's expiry.
    const expiresAt = row.state === 'ready' ? (row.expiresAt?.toISOString() ?? null) : null;
    return {
      id: row.id,
      state,
      progress: row.progress,
      createdAt: row.createdAt.toISOString(),
      readyAt: row.readyAt?.toISOString() ?? null,
      expiresAt,
      downloadUrl: live && row.expiresAt ? links.url(row.id, row.expiresAt) : null,
    };
  }

  /** Prepares one claimed export: each area read and its progress committed, then the ZIP. */
  async function prepare(claimed: DataExportInfo, held: { lease: Date }): Promise<boolean> {
    const locale: Locale = claimed.locale === 'en' ? 'en' : 'fo';
    const context = areaContext(db, claimed.userId, locale);
    const files = new Map<string, unknown>();
    for (const [index, area] of areas.entries()) {
      files.set(area.file, await area.read(context));
      for (const [name, bytes] of (await area.files?.(context)) ?? []) files.set(name, bytes);
      const nextLease = new Date(now().getTime() + EXPORT_LEASE_MS);
      const progress = Math.round((95 * (index + 1)) / areas.length);
      if (!(await advanceExport(db, claimed.id, held.lease, progress, nextLease))) return false;
      held.lease = nextLease;
    }
    const readyAt = now();
    const expiresAt = new Date(readyAt.getTime() + DATA_EXPORT_LINK_DAYS * 24 * 3600 * 1000);
    const file = zipExport(files, locale, readyAt);
    const user = await db.transaction(async (tx) => {
      const done = { file, readyAt, expiresAt };
      if (!(await finishExport(tx, claimed.id, held.lease, done))) return null;
      await insertNotifications(tx, [
        {
          userId: claimed.userId,
          type: 'data_export_ready',
          params: {},
          link: PROFILE_PATH,
          createdAt: readyAt,
        },
      ]);
      // The export is audited in the customer's own activity log.
      await insertActions(tx, [
        { userId: claimed.userId, type: 'data_export', createdAt: readyAt },
      ]);
      await bumpUserVersions(tx, [claimed.userId]);
      return findUser(tx, claimed.userId);
    });
    if (!user) return false;
    log.info({ exportId: claimed.id, byteSize: file.length }, 'data export ready');
    const message = exportReadyEmail(locale, user, links.url(claimed.id, expiresAt), expiresAt);
    deps.background.run('data export e-mail', async () => {
      await deps.email.send(message);
      log.info({ exportId: claimed.id, via: deps.email.kind }, 'data export e-mail sent');
    });
    return true;
  }

  return {
    /**
     * Asks for an export in `locale` (the request's language, else the user's). One pending per
     * user (409 DATA_EXPORT_PENDING; the partial unique index decides a race), at most
     * POLICIES.dataExportUser a day (429).
     */
    async request(userId: string, requested: Locale | undefined): Promise<DataExport> {
      if (await hasPendingExport(db, userId)) throw pending();
      const user = await findUser(db, userId);
      if (!user) throw new AppError('UNAUTHORIZED', { detail: 'user of the session is gone' });
      const permit = await deps.limiter.consume([
        { policy: POLICIES.dataExportUser, subject: [userId] },
      ]);
      const at = now();
      try {
        const row = await db.transaction(async (tx) => {
          const inserted = await insertExport(tx, {
            userId,
            locale: requested ?? user.locale,
            createdAt: at,
          });
          await bumpUserVersions(tx, [userId]);
          return inserted;
        });
        return toDto(row, at);
      } catch (error) {
        if (uniqueViolationOf(error) === PENDING_INDEX) {
          await permit.refund();
          throw pending();
        }
        throw error;
      }
    },

    /** The user's newest exports with their progress; a link only while one is ready. */
    async list(userId: string): Promise<DataExport[]> {
      const at = now();
      return (await findExportsOfUser(db, userId, EXPORTS_LISTED)).map((row) => toDto(row, at));
    },

    /**
     * The ZIP a signed link names. Anything but a genuine, unexpired link to a ready export whose
     * file is still there is 410 DATA_EXPORT_LINK_INVALID — the same answer for all, so a dead
     * link reveals nothing.
     */
    async download(id: string, expires: number, sig: string) {
      const at = now();
      if (!isUuid(id) || !links.verify(id, expires, sig)) throw dead('bad signature');
      if (expires * 1000 <= at.getTime()) throw dead('link expired');
      const row = await findExport(db, id);
      if (
        !row?.file ||
        row.state !== 'ready' ||
        !row.expiresAt ||
        !row.readyAt ||
        row.expiresAt <= at ||
        unixSeconds(row.expiresAt) !== expires
      ) {
        throw dead('export gone, expired or not ready');
      }
      await markDownloaded(db, id, at);
      return { filename: exportFilename(row.readyAt), content: row.file };
    },

    /**
     * One round of the worker: removes the files of expired exports, then claims and prepares
     * the oldest queued one. A failure marks it failed (logged without personal data).
     */
    async runRound(): Promise<RoundResult> {
      const result: RoundResult = { prepared: 0, failed: 0, expired: 0 };
      result.expired = await removeExpiredFiles(db, now());
      const claimed = await claimNextExport(db, now(), new Date(now().getTime() + EXPORT_LEASE_MS));
      if (!claimed?.expiresAt) return result;
      const held = { lease: claimed.expiresAt };
      try {
        if (await prepare(claimed, held)) result.prepared += 1;
      } catch (error) {
        result.failed += 1;
        // The error only: no row values, no personal data (log-privacy.ts blanks quoted values).
        if (!(error instanceof ExportUserGone)) {
          log.error({ err: error, exportId: claimed.id }, 'data export failed');
        }
        await failExport(db, claimed.id, held.lease);
      }
      return result;
    },
  };
}

export type DataExportService = ReturnType<typeof createDataExportService>;
