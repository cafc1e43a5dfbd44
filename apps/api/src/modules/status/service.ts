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
  /** The upgrade flags of an app version, worked out once per version seen (semver parsing). */
  const flagsByVersion = new Map<string, { mustUpgrade: boolean; shouldUpgrade: boolean }>();
  const MAX_VERSIONS = 100;
  function upgradeFlags(currentVersion: string) {
    let flags = flagsByVersion.get(currentVersion);
    if (!flags) {
      const current = semver.coerce(currentVersion)?.version ?? '0.0.0';
      flags = {
        mustUpgrade: semver.lt(current, deps.minAppVersion),
        shouldUpgrade: semver.lt(current, deps.latestAppVersion),
      };
      // Versions come from the clients: keep a bounded few (the live ones are a handful).
      if (flagsByVersion.size >= MAX_VERSIONS) flagsByVersion.clear();
      flagsByVersion.set(currentVersion, flags);
    }
    return flags;
  }

  /**
   * `mustUpgrade` when the app is older than MIN_APP_VERSION, `shouldUpgrade` when older than
   * LATEST_APP_VERSION (so a forced upgrade is always also a suggested one); the messages in
   * their window now. `key` names the answer for the memory of rendered answers; `response`
   * builds it (only when it is not kept).
   */
  async function decide(request: StatusRequest, locale: Locale) {
    const { mustUpgrade, shouldUpgrade } = upgradeFlags(request.currentVersion);
    const at = deps.now();
    const load = () => findOpenStatusMessages(deps.db, at);
    // Messages not yet ended when read (kept in memory until one changes); each call keeps
    // those in their window now.
    const open = deps.reference
      ? await deps.reference.value('status-messages', load)
      : await load();
    const rows = open.filter((row) => isInWindow(row, at));
    const response = (): StatusResponse => ({
      mustUpgrade,
      shouldUpgrade,
      messages: rows.map((row) => toStatusMessageDto(row, locale)),
    });
    const key = ['status', locale, mustUpgrade, shouldUpgrade, ...rows.map((r) => r.id)].join(':');
    return { response, key };
  }

  return {
    /**
     * The check as the route sends it, serialized by `serialize`; with reference memory the
     * body is kept per language, upgrade flags and set of messages (ADR 0057), since nearly
     * every app asks the same question.
     */
    async checkBody(
      request: StatusRequest,
      locale: Locale,
      serialize: (response: StatusResponse) => string,
    ): Promise<string> {
      const { response, key } = await decide(request, locale);
      if (!deps.reference) return serialize(response());
      return deps.reference.value(`body:${key}`, async () => serialize(response()));
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
