import type { TFunction } from 'i18next';
import { APP_VERSION } from '@alda/contract/constants';
import type { DeviceMeta, StatusMessage } from '@alda/contract/schemas/status';
import type { HttpClient } from '@/shared/api/http';
import type { KeyValueStorage } from '@/shared/native/preferences';
import type { Platform } from '@/shared/native/platform';
import type { ModalStore } from '@/shared/ui/modal/modal-store';

/** Preference key of the status message ids this device has shown. */
export const SEEN_STATUS_MESSAGES_KEY = 'seenStatusMessages';

export interface StatusCheckDeps {
  /** The platform check; the status check runs only in the native shell (SPEC §1). */
  isNative: () => boolean;
  platform: () => Platform;
  http: Pick<HttpClient, 'post'>;
  getDeviceMeta: () => Promise<DeviceMeta>;
  storage: KeyValueStorage;
  modals: Pick<ModalStore, 'alert' | 'confirm' | 'info'>;
  t: TFunction;
  openUrl: (url: string) => Promise<void>;
  storeUrls: { ios: string; android: string };
  /** Receives the unread messages (SPEC §4 "They are stored when unread"). */
  storeMessages: (messages: StatusMessage[]) => void;
  now?: () => Date;
}

/**
 * The message window. SPEC §4 quotes the original check `now <= from && now > to`, which can
 * never be true for a sensible window; the intent is "active between activeFrom and activeTo",
 * with an open end where a bound is null. The API filters the same way; this is a second guard.
 */
export function isActive(message: StatusMessage, now: Date): boolean {
  const t = now.getTime();
  if (message.activeFrom && t < Date.parse(message.activeFrom)) return false;
  if (message.activeTo && t >= Date.parse(message.activeTo)) return false;
  return true;
}

async function readSeen(storage: KeyValueStorage): Promise<Set<string>> {
  try {
    const raw = await storage.get(SEEN_STATUS_MESSAGES_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return new Set(
      Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [],
    );
  } catch {
    return new Set();
  }
}

/**
 * The status check of SPEC §1/§4/§8, run at app resume in the native shell: POST /status with
 * the app version and device meta; mustUpgrade → a non-dismissable alert whose button opens the
 * store; shouldUpgrade → a confirm ('Dagfør appina' / 'Bíða við dagføring'); unread messages
 * are stored and shown one after another, then remembered as seen. Failure is only logged.
 */
export function createStatusCheck(deps: StatusCheckDeps): () => Promise<void> {
  let running = false;
  let forcedUpgradeShown = false;
  const now = deps.now ?? (() => new Date());

  const openStore = () => {
    const url = deps.platform() === 'ios' ? deps.storeUrls.ios : deps.storeUrls.android;
    void deps
      .openUrl(url)
      .catch((error: unknown) => console.warn('Could not open the store', error));
  };

  async function check(): Promise<void> {
    const deviceMeta = await deps.getDeviceMeta();
    const result = await deps.http.post(
      '/status',
      { currentVersion: APP_VERSION, deviceMeta },
      // The check runs from the entry chunk (at resume); the schema and zod load with the call.
      import('@alda/contract/schemas/status').then((m) => m.statusResponse),
    );
    if (!result.ok) {
      console.warn('Status check failed', result.error);
      return;
    }
    const { mustUpgrade, shouldUpgrade, messages } = result.data;
    const { t } = deps;

    if (mustUpgrade) {
      // The app may not be used any more: the alert stays until the user updates (a new
      // install restarts the app). One is enough, however often the app resumes.
      if (!forcedUpgradeShown) {
        forcedUpgradeShown = true;
        void deps.modals.alert({
          title: t('status.upgradeTitle'),
          message: t('status.upgradeMessage'),
          buttonLabel: t('status.upgradeButton'),
          tone: 'warning',
          dismissable: false,
          closeOnConfirm: false,
          onConfirm: openStore,
        });
      }
      return;
    }

    if (shouldUpgrade) {
      const update = await deps.modals.confirm({
        title: t('status.upgradeTitle'),
        message: t('status.upgradeMessage'),
        confirmLabel: t('status.upgradeButton'),
        cancelLabel: t('status.later'),
        tone: 'info',
      });
      if (update) openStore();
    }

    const seen = await readSeen(deps.storage);
    const unread = messages.filter((m) => !m.isRead && !seen.has(m.id) && isActive(m, now()));
    if (unread.length === 0) return;
    deps.storeMessages(unread);
    for (const message of unread) {
      await deps.modals.info({ title: message.title, message: message.body });
      seen.add(message.id);
      await deps.storage.set(SEEN_STATUS_MESSAGES_KEY, JSON.stringify([...seen]));
    }
  }

  return async function runStatusCheck() {
    if (!deps.isNative() || running) return;
    running = true;
    try {
      await check();
    } catch (error) {
      console.warn('Status check failed', error);
    } finally {
      running = false;
    }
  };
}
