import { fromFaroeWallClock } from '@alda/contract/format/date';
import type { Locale } from '@alda/contract/locale';
import { auditPage } from '@alda/contract/schemas/staff';
import { ApiError } from '@/shared/api';
import type { SessionStore } from '@/shared/session';
import { useKeysetPages } from '@/shared/keyset-pages';

/*
 * The audit log's calls (admin): `GET /api/staff/audit` page by page (`before` = the last page's
 * `nextBefore`), refreshed every 5 s, and `GET /api/staff/audit.csv` with the same filters,
 * fetched with the staff token (it lives in the header, not a cookie, so a plain link would not
 * do) and saved from a Blob.
 */

export const AUDIT_PAGE_SIZE = 100;

/** The filters as the screen keeps them (and the address shows them): days are `YYYY-MM-DD`. */
export interface AuditFilter {
  actor: string;
  action: string;
  targetId: string;
  /** First day, Tórshavn time. */
  from: string;
  /** Last day (included), Tórshavn time. */
  to: string;
}

export const EMPTY_FILTER: AuditFilter = { actor: '', action: '', targetId: '', from: '', to: '' };

function dayParts(day: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

/** The API's query of the filters: days become instants (the start of `from`, the end of `to`). */
export function auditQueryOf(filter: AuditFilter): Record<string, string | undefined> {
  const from = dayParts(filter.from);
  const to = dayParts(filter.to);
  return {
    actor: filter.actor.trim() || undefined,
    action: filter.action.trim() || undefined,
    targetId: filter.targetId.trim() || undefined,
    from: from ? fromFaroeWallClock(...from).toISOString() : undefined,
    to: to
      ? new Date(fromFaroeWallClock(to[0], to[1], to[2] + 1).getTime() - 1).toISOString()
      : undefined,
  };
}

export const auditKeys = {
  all: ['staff', 'audit'] as const,
  list: (filter: AuditFilter) => ['staff', 'audit', 'list', filter] as const,
};

/** The log, page by page (`useKeysetPages`). */
export function useAudit(filter: AuditFilter) {
  return useKeysetPages({
    queryKey: auditKeys.list(filter),
    path: '/api/staff/audit',
    query: { ...auditQueryOf(filter), limit: AUDIT_PAGE_SIZE },
    schema: auditPage,
  });
}

/** The address of the CSV export with the filters (no paging: every matching entry). */
export function auditCsvUrl(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(auditQueryOf(filter))) {
    if (value !== undefined) params.set(key, value);
  }
  const search = params.toString();
  return search ? `/api/staff/audit.csv?${search}` : '/api/staff/audit.csv';
}

/**
 * Fetches the CSV with the staff token and hands it to the browser as a download
 * (`alda-audit-<date>.csv`). A refused call throws an {@link ApiError}; a 401 ends the session, as
 * the API client does.
 */
export async function downloadAuditCsv(
  filter: AuditFilter,
  { session, locale }: { session: SessionStore; locale: Locale },
): Promise<void> {
  const token = session.token();
  let response: Response;
  try {
    response = await fetch(auditCsvUrl(filter), {
      headers: {
        accept: 'text/csv',
        'accept-language': locale,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      credentials: 'omit',
    });
  } catch {
    throw new ApiError('NETWORK', 0, '');
  }
  if (!response.ok) {
    let code = 'INVALID_RESPONSE';
    let message = '';
    try {
      const body = (await response.json()) as { error?: { code?: string; message?: string } };
      code = body.error?.code ?? code;
      message = body.error?.message ?? '';
    } catch {
      // Not the API's envelope.
    }
    if (response.status === 401 && token && session.token() === token) session.end('expired');
    throw new ApiError(code, response.status, message);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `alda-audit-${new Date().toISOString().slice(0, 10)}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; the browser keeps it until the download is done.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
