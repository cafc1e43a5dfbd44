import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  SUPPORT_SUBJECT_TYPES,
  type SupportConversation,
  type SupportSubjectInput,
} from '@alda/contract/schemas/support';
import { isOnline, useOnline } from '@/shared/api/connectivity';
import type { ApiError, HttpClient } from '@/shared/api/http';
import { pollIntervalMs } from '@/shared/config/polling';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { supportKeys } from '@/shared/support/support-queries';
import { SUPPORT_OUTBOX_PREFIX } from './outbox-keys';
import { supportApi } from './support-api';
import { compareCodeUnits } from '@/shared/format/compare';

/**
 * Messages written while offline (issue 46), kept on the device until the connection is back:
 * per user, keyed by the message's `clientId`, which the API uses to keep a message sent twice
 * only once. Text only: photos cannot be uploaded without a connection. Support screens send
 * what waits when they open and when the connection returns ({@link useOutboxSender}).
 */
export interface OutboxEntry {
  clientId: string;
  /** The conversation written in; null for a new one (then `subject` says what about). */
  conversationId: string | null;
  subject: SupportSubjectInput | null;
  /** A new conversation's item as the customer saw it ("55 78 13"), until the server names it. */
  reference: string | null;
  body: string;
  createdAt: string;
  /** The API's code when it refused the message for good: shown, never sent again. */
  failed: string | null;
}

const keyOf = (userId: string) => `${SUPPORT_OUTBOX_PREFIX}${userId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNullableString = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

function subjectOf(value: unknown): SupportSubjectInput | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const type = SUPPORT_SUBJECT_TYPES.find((known) => known === value.type);
  if (!type) return undefined;
  if (value.id === undefined) return { type };
  return typeof value.id === 'string' ? { type, id: value.id } : undefined;
}

/** An entry read back from storage, or null when it is not one (an older or damaged value). */
function entryOf(value: unknown): OutboxEntry | null {
  if (!isRecord(value)) return null;
  const { clientId, conversationId, reference, body, createdAt, failed } = value;
  const subject = subjectOf(value.subject);
  if (
    typeof clientId !== 'string' ||
    !isNullableString(conversationId) ||
    subject === undefined ||
    !isNullableString(reference) ||
    typeof body !== 'string' ||
    typeof createdAt !== 'string' ||
    !isNullableString(failed)
  )
    return null;
  return { clientId, conversationId, subject, reference, body, createdAt, failed };
}

const EMPTY: readonly OutboxEntry[] = [];
/** The last entries read per user, so a snapshot stays the same object while nothing changed. */
const snapshots = new Map<string, { raw: string | null; entries: readonly OutboxEntry[] }>();
const listeners = new Set<() => void>();

/** What waits on the device for this user, oldest first. */
export function outboxEntries(userId: string): readonly OutboxEntry[] {
  const raw = storage()?.getItem(keyOf(userId)) ?? null;
  const known = snapshots.get(userId);
  if (known && known.raw === raw) return known.entries;
  let entries = EMPTY;
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isRecord(parsed))
        entries = Object.values(parsed)
          .map(entryOf)
          .filter((entry): entry is OutboxEntry => entry !== null)
          .sort((a, b) => compareCodeUnits(a.createdAt, b.createdAt));
    } catch {
      entries = EMPTY;
    }
  }
  snapshots.set(userId, { raw, entries });
  return entries;
}

function write(userId: string, entries: readonly OutboxEntry[]): void {
  const store = storage();
  try {
    if (entries.length === 0) store?.removeItem(keyOf(userId));
    else
      store?.setItem(
        keyOf(userId),
        JSON.stringify(Object.fromEntries(entries.map((entry) => [entry.clientId, entry]))),
      );
  } catch {
    // Full or refused storage: the message is not kept; the composer said it would be.
  }
  for (const listener of [...listeners]) listener();
}

/** Keeps a message to send once the connection is back (the same clientId again then). */
export function keepMessage(
  userId: string,
  entry: Omit<OutboxEntry, 'createdAt' | 'failed' | 'reference'> & { reference?: string | null },
): void {
  const others = outboxEntries(userId).filter((e) => e.clientId !== entry.clientId);
  write(userId, [
    ...others,
    {
      ...entry,
      reference: entry.reference ?? null,
      createdAt: new Date().toISOString(),
      failed: null,
    },
  ]);
}

/** Forgets a kept message (sent, or removed by the customer). */
export function forgetMessage(userId: string, clientId: string): void {
  write(
    userId,
    outboxEntries(userId).filter((entry) => entry.clientId !== clientId),
  );
}

function markFailed(userId: string, clientId: string, code: string): void {
  write(
    userId,
    outboxEntries(userId).map((entry) =>
      entry.clientId === clientId ? { ...entry, failed: code } : entry,
    ),
  );
}

/** The messages kept for this user, re-rendering when they change. */
export function useOutbox(userId: string | null): readonly OutboxEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => (userId ? outboxEntries(userId) : EMPTY),
    () => EMPTY,
  );
}

/** A failure that a later try may not meet: no connection, the server busy or failing. */
export const isPassing = (error: Pick<ApiError, 'code' | 'status'>) =>
  error.code === 'OFFLINE' || error.status === 0 || error.status === 429 || error.status >= 500;

/** Messages being sent now, so two triggers at once do not send one twice. */
const inFlight = new Set<string>();

/**
 * Sends what waits for `userId`, oldest first, each with its own clientId (the API keeps a
 * message once, however often it arrives). Stops at the first passing failure (still offline,
 * the server failing) and tries again on the next occasion; a message the API refuses for good
 * (a conversation closed too long ago) stays on the device, marked with the code, for the
 * customer to see and remove.
 */
export async function sendKept(
  http: HttpClient,
  queryClient: QueryClient,
  userId: string,
): Promise<void> {
  for (const entry of outboxEntries(userId)) {
    if (entry.failed || inFlight.has(entry.clientId)) continue;
    if (!isOnline()) return;
    inFlight.add(entry.clientId);
    // In flight until the outcome is written down: another sender (the screen's, the app's)
    // must not pick the message up between the answer and its removal.
    try {
      const result = await (entry.conversationId === null
        ? supportApi.start(http, {
            subject: entry.subject ?? { type: 'general' },
            body: entry.body,
            clientId: entry.clientId,
          })
        : supportApi.write(http, entry.conversationId, {
            body: entry.body,
            clientId: entry.clientId,
          }));
      if (result.ok) {
        forgetMessage(userId, entry.clientId);
        conversationChanged(queryClient, result.data);
        continue;
      }
      if (isPassing(result.error)) return;
      markFailed(userId, entry.clientId, result.error.code);
    } finally {
      inFlight.delete(entry.clientId);
    }
  }
}

/** A conversation the API answered with: its thread as it is now, and the list out of date. */
export function conversationChanged(queryClient: QueryClient, conversation: SupportConversation) {
  queryClient.setQueryData(supportKeys.thread(conversation.id), conversation);
  void queryClient.invalidateQueries({ queryKey: supportKeys.list });
}

/**
 * While a support screen is open: sends the kept messages at once, whenever the connection
 * comes back, and every polling interval while some still wait.
 */
export function useOutboxSender(): readonly OutboxEntry[] {
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const userId = useSession().user?.id ?? null;
  const online = useOnline();
  const entries = useOutbox(userId);
  const waiting = entries.some((entry) => entry.failed === null);

  useEffect(() => {
    if (!userId || !online || !waiting) return;
    const send = () => void sendKept(http, queryClient, userId);
    send();
    const timer = setInterval(send, pollIntervalMs());
    return () => clearInterval(timer);
  }, [userId, online, waiting, http, queryClient]);

  return entries;
}
