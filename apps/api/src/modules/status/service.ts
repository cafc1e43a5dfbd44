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
  reference?: Pick<ReferenceMemory, 'value' | 'kept'>;
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

  const OPEN_MESSAGES = 'status-messages';

  /** Messages not yet ended when read (kept in memory until one changes, ADR 0057). */
  function openMessages(at: Date): StatusMessageRow[] | Promise<StatusMessageRow[]> {
    if (!deps.reference) return findOpenStatusMessages(deps.db, at);
    return (
      deps.reference.kept<StatusMessageRow[]>(OPEN_MESSAGES) ??
      deps.reference.value(OPEN_MESSAGES, () => findOpenStatusMessages(deps.db, at))
    );
  }

  /**
   * The answer between two message boundaries (issue 13): which messages are in their window
   * changes only at an activeFrom or activeTo, so the set and the bodies built from it hold for
   * [from, until). They belong to one list of open messages as reference memory keeps it: when
   * that is dropped (a change, a lost LISTEN), the next list is another array and all is rebuilt.
   */
  let current:
    | {
        open: StatusMessageRow[];
        from: number;
        until: number;
        rows: StatusMessageRow[];
        /** Serialized answers by language and upgrade flags. */
        bodies: Map<string, string>;
      }
    | undefined;

  function windowAt(open: StatusMessageRow[], at: Date) {
    const t = at.getTime();
    if (current && current.open === open && current.from <= t && t < current.until) return current;
    let from = -Infinity;
    let until = Infinity;
    for (const row of open) {
      for (const edge of [row.activeFrom?.getTime(), row.activeTo?.getTime()]) {
        if (edge === undefined) continue;
        if (edge <= t) from = Math.max(from, edge);
        else until = Math.min(until, edge);
      }
    }
    const rows = open.filter((row) => isInWindow(row, at));
    current = { open, from, until, rows, bodies: new Map() };
    return current;
  }

  return {
    /**
     * The check as the route sends it, serialized by `serialize`: `mustUpgrade` when the app is
     * older than MIN_APP_VERSION, `shouldUpgrade` when older than LATEST_APP_VERSION (so a forced
     * upgrade is always also a suggested one), and the messages in their window now. Nearly
     * every app asks the same question, so with reference memory the body is kept per language
     * and upgrade flags until the set of messages changes, and found without a promise (issue 13: the check runs at every app resume).
     */
    checkBody(
      request: StatusRequest,
      locale: Locale,
      serialize: (response: StatusResponse) => string,
    ): string | Promise<string> {
      const { mustUpgrade, shouldUpgrade } = upgradeFlags(request.currentVersion);
      const at = deps.now();
      const answer = (open: StatusMessageRow[]) => {
        const window = windowAt(open, at);
        const key = `${locale}:${mustUpgrade}:${shouldUpgrade}`;
        let body = window.bodies.get(key);
        if (body === undefined) {
          body = serialize({
            mustUpgrade,
            shouldUpgrade,
            messages: window.rows.map((row) => toStatusMessageDto(row, locale)),
          });
          // A list read from the database (memory not trusted now) is new on every request.
          if (open === deps.reference?.kept(OPEN_MESSAGES)) window.bodies.set(key, body);
        }
        return body;
      };
      const open = openMessages(at);
      return Array.isArray(open) ? answer(open) : open.then(answer);
    },
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
