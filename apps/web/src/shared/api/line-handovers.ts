import { useQuery } from '@tanstack/react-query';
import {
  lineHandover,
  lineHandoversResponse,
  type LineHandover,
} from '@alda/contract/schemas/subscriptions';
import { useAppServices } from '@/shared/services/app-services';
import { accountKeys } from './account-data';
import { unwrap } from './http';

/**
 * Line hand-overs (ADR 0056 "Hand a number to another person"), read by the menu (the pending
 * offers to the user) and the hand-over screen. Under `accountKeys.all`, so logout and every
 * placed order forget them with the rest of the account.
 */
export const lineHandoverKeys = {
  all: [...accountKeys.all, 'line-handovers'] as const,
  detail: (id: string) => [...accountKeys.all, 'line-handovers', id] as const,
};

/** GET /line-handovers: the pending hand-overs to and from the user, oldest first. */
export function useLineHandoversQuery() {
  const { http } = useAppServices();
  return useQuery({
    queryKey: lineHandoverKeys.all,
    queryFn: async ({ signal }) =>
      unwrap(await http.get('/line-handovers', lineHandoversResponse, { signal })),
  });
}

/** GET /line-handovers/{id}: one hand-over, for its giver or its receiver. */
export function useLineHandoverQuery(id: string) {
  const { http } = useAppServices();
  return useQuery({
    queryKey: lineHandoverKeys.detail(id),
    queryFn: async ({ signal }): Promise<LineHandover> =>
      unwrap(await http.get(`/line-handovers/${encodeURIComponent(id)}`, lineHandover, { signal })),
  });
}

/** The hand-overs offered to the user that wait for their answer. */
export const offersToMe = (handovers: readonly LineHandover[] | undefined): LineHandover[] =>
  (handovers ?? []).filter((h) => h.isReceiver && h.status === 'pending');
