import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { memberPriceAt } from '@alda/contract/rules/family';
import type { PlanSize } from '@alda/contract/rules/lifecycle';
import { isProcessing } from '@alda/contract/rules/orders';
import { IDEMPOTENCY_KEY_HEADER } from '@alda/contract/schemas/common';
import {
  order,
  orderPlacedResponse,
  type Order,
  type OrderPlacedResponse,
} from '@alda/contract/schemas/orders';
import type { Plan } from '@alda/contract/schemas/plans';
import type { Account, UpdateSubscriptionRequest } from '@alda/contract/schemas/subscriptions';
import type { ApiError, HttpClient, Result } from '@/shared/api/http';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useKnownError } from '@/shared/i18n/use-known-error';

/*
 * The calls of the subscription lifecycle (docs/decisions/0056-subscription-lifecycle.md), shared
 * by the plan-change screen, the manage screens and the family member screen. Each change is an
 * order, placed once per Idempotency-Key.
 */

const idem = (key: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
const enc = encodeURIComponent;

/** PATCH /subscriptions/{memberId} {planId}: another plan for the number's account. */
export function changePlan(
  http: HttpClient,
  memberId: string,
  planId: string,
  key: string,
): Promise<Result<OrderPlacedResponse>> {
  const body: UpdateSubscriptionRequest = { planId };
  return http.patch(`/subscriptions/${enc(memberId)}`, body, orderPlacedResponse, idem(key));
}

/** DELETE /subscriptions?line=…: cancel the account of that (6-digit) number. */
export function cancelSubscription(
  http: HttpClient,
  line: string,
  key: string,
): Promise<Result<OrderPlacedResponse>> {
  return http.delete('/subscriptions', orderPlacedResponse, { ...idem(key), query: { line } });
}

/** DELETE /subscriptions/deactivate-plan/{memberId}: the number becomes talutíð at month end. */
export function deactivatePlan(
  http: HttpClient,
  memberId: string,
  key: string,
): Promise<Result<OrderPlacedResponse>> {
  return http.delete(
    `/subscriptions/deactivate-plan/${enc(memberId)}`,
    orderPlacedResponse,
    idem(key),
  );
}

/** DELETE /subscriptions/delete-number/{memberId}: the number leaves Alda (then quarantined). */
export function deleteNumber(
  http: HttpClient,
  memberId: string,
  key: string,
): Promise<Result<OrderPlacedResponse>> {
  return http.delete(
    `/subscriptions/delete-number/${enc(memberId)}`,
    orderPlacedResponse,
    idem(key),
  );
}

/** POST /orders/{orderId}/withdraw: undo a change that waits for month end. */
export function withdrawOrder(http: HttpClient, orderId: string): Promise<Result<Order>> {
  return http.post(`/orders/${enc(orderId)}/withdraw`, undefined, order);
}

/** What `isSmallerPlan` compares: the plan's own price (its first member price) and its data. */
export function planSize(plan: Pick<Plan, 'memberPrices' | 'dataMb'>): PlanSize {
  return { monthlyPriceOere: plan.memberPrices[0]?.price ?? 0, dataMb: plan.dataMb };
}

/** What the account costs a month on `plan`: each member at its position (SPEC §4). */
export function accountMonthlyPrice(plan: Pick<Plan, 'memberPrices'>, members: number): number {
  let total = 0;
  for (let index = 0; index < Math.max(1, members); index += 1)
    total += memberPriceAt(plan.memberPrices, index);
  return total;
}

/**
 * Why the account cannot take another change now (SPEC §4 "Plan changes are blocked while
 * orders are processing"; ADR 0056: a waiting month-end change blocks too): the order to look
 * at, or null when nothing blocks. The server decides in the end (PLAN_CHANGE_BLOCKED).
 */
export function blockingOrderOf(
  account: Account,
  orders: readonly Order[] | undefined,
): { kind: 'pending' | 'processing'; orderId: string | null } | null {
  const pending = account.members.find((m) => m.pendingChange);
  if (pending?.pendingChange) return { kind: 'pending', orderId: pending.pendingChange.orderId };
  const numbers = new Set(account.members.map((m) => m.phoneNumber));
  const lines = new Set(account.members.map((m) => m.id));
  const open = (orders ?? []).find(
    (o) =>
      isProcessing(o) &&
      ((o.lineId != null && lines.has(o.lineId)) ||
        (o.phoneNumber !== null && numbers.has(o.phoneNumber))),
  );
  if (open) return { kind: 'processing', orderId: open.id };
  const processingMember = account.members.some((m) => m.status === 'processing');
  if (processingMember || (account.family?.processingMembers ?? 0) > 0)
    return { kind: 'processing', orderId: null };
  return null;
}

/**
 * The message of a failed lifecycle call: the contract's text for a code the API knows, else the
 * app's own SPEC §8 message for the action (`fallbackKey`, e.g. 'lifecycle.updateFailed').
 */
export function useLifecycleFailure(): (error: ApiError, fallbackKey: ParseKeys) => string {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const known = useKnownError();
  return useCallback(
    (error, fallbackKey) => (known(error) ? errorMessage(error) : t(fallbackKey)),
    [errorMessage, known, t],
  );
}

/**
 * Idempotency-Keys of confirmed changes: one key per change (`scope`), kept while the call got no
 * answer (a retry of the same confirm cannot place the order twice), dropped once answered.
 */
export function useIdempotencyKeys() {
  const keys = useRef(new Map<string, string>());
  return {
    keyFor: (scope: string) => {
      const existing = keys.current.get(scope);
      if (existing) return existing;
      const key = crypto.randomUUID();
      keys.current.set(scope, key);
      return key;
    },
    settle: (scope: string, result: Result<unknown>) => {
      if (result.ok || result.error.status !== 0) keys.current.delete(scope);
    },
  };
}
