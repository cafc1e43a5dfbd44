import semver from 'semver';
import type { Locale } from '@alda/contract/locale';
import type { StatusMessage, StatusRequest, StatusResponse } from '@alda/contract/schemas/status';
import type { Db } from '../../db/client';
import type { StatusMessageRow } from '../../db/schema/status-messages';
import type { ReferenceMemory } from '../../db/reference-memory';
import { findOpenStatusMessages, isInWindow } from './repo';

export interface StatusServiceDeps {
  db: Db;
  /** Status messages kept in memory until they change (ADR 0057); without it, read each time. */
  reference?: Pick<ReferenceMemory, 'value'>;
  minAppVersion: string;
  latestAppVersion: string;
  now: () => Date;
}

/** Maps a row to the contract DTO in the caller's language. */
export function toStatusMessageDto(row: StatusMessageRow, locale: Locale): StatusMessage {
  return {
    id: row.id,
    title: locale === 'en' ? row.titleEn : row.titleFo,
    body: locale === 'en' ? row.bodyEn : row.bodyFo,
    // The server does not track which device has shown which message: the shell stores the ids
    // it has shown (SPEC §4 "stored when unread"); see docs/decisions/0010.
    isRead: false,
    activeFrom: row.activeFrom?.toISOString() ?? null,
    activeTo: row.activeTo?.toISOString() ?? null,
  };
}

/**
 * The native shell's start-up check (SPEC §7 Status, §4 "Upgrade check"): upgrade flags from the
 * configured versions and the status messages active right now.
 */
export function createStatusService(deps: StatusServiceDeps) {
  return {
    /**
     * `mustUpgrade` when the app is older than MIN_APP_VERSION, `shouldUpgrade` when older than
     * LATEST_APP_VERSION (so a forced upgrade is always also a suggested one).
     */
    async check(request: StatusRequest, locale: Locale): Promise<StatusResponse> {
      const current = semver.coerce(request.currentVersion)?.version ?? '0.0.0';
      const at = deps.now();
      const load = () => findOpenStatusMessages(deps.db, at);
      // Messages not yet ended when read; each call keeps those in their window now.
      const open = deps.reference ? await deps.reference.value('status-messages', load) : await load();
      const rows = open.filter((row) => isInWindow(row, at));
      return {
        mustUpgrade: semver.lt(current, deps.minAppVersion),
        shouldUpgrade: semver.lt(current, deps.latestAppVersion),
        messages: rows.map((row) => toStatusMessageDto(row, locale)),
      };
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
