import { useState } from 'react';
import { NUMBER_QUARANTINE_DAYS } from '@alda/contract/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { useNavigate } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import {
  cancellationEffectiveAt,
  lastDayBefore,
  monthsStillOwed,
} from '@alda/contract/rules/lifecycle';
import { findPlan } from '@alda/contract/rules/plans';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Member } from '@alda/contract/schemas/subscriptions';
import { accountKeys } from '@/shared/api/account-data';
import { usePlansQuery } from '@/shared/api/account-queries';
import type { HttpClient, Result } from '@/shared/api/http';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { CloseIcon, TrashIcon } from '@/shared/ui/icons';
import { ListRowButton } from '@/shared/ui/list-row';
import { useModal } from '@/shared/ui/modal/modal-context';
import type { ConfirmOptions } from '@/shared/ui/modal/modal-store';
import { useToast } from '@/shared/ui/toast/toast-context';
import {
  cancelSubscription,
  deactivatePlan,
  deleteNumber,
  useIdempotencyKeys,
  useLifecycleFailure,
  withdrawOrder,
} from './lifecycle-api';

/** A number on prepaid (talutíð): it has credit instead of a monthly plan. */
export function isTalutid(member: Pick<Member, 'prepaidBalance'>): boolean {
  return member.prepaidBalance !== null && member.prepaidBalance !== undefined;
}

/** The latest commitment end among numbers: a cancellation cannot end any of them sooner. */
export function latestCommitmentEnd(members: readonly Pick<Member, 'commitmentEndsAt'>[]) {
  let latest: string | null = null;
  for (const { commitmentEndsAt } of members)
    if (commitmentEndsAt && (latest === null || Date.parse(commitmentEndsAt) > Date.parse(latest)))
      latest = commitmentEndsAt;
  return latest;
}

interface Change {
  confirm: ConfirmOptions;
  /** One change, one Idempotency-Key (kept for a retry after no answer). */
  scope: string;
  call: (http: HttpClient, key: string) => Promise<Result<OrderPlacedResponse>>;
  /** SPEC §8: the app's own message when the call fails without a known code. */
  failedKey: ParseKeys;
  doneMessage: string;
}

/**
 * Confirms a lifecycle change, places it, and refreshes the account data so every screen shows
 * it (pending notice, processing badge). A change that takes effect at once opens its order.
 */
function useLifecycleChange() {
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const failure = useLifecycleFailure();
  const keys = useIdempotencyKeys();
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (change: Change) => {
    if (busy) return;
    if (!(await modal.confirm(change.confirm))) return;
    setBusy(change.scope);
    const result = await change.call(http, keys.keyFor(change.scope));
    keys.settle(change.scope, result);
    if (!result.ok) {
      setBusy(null);
      toast.show({ type: 'error', message: failure(result.error, change.failedKey) });
      // The account may have changed meanwhile (an order, a cancellation): show how it is now.
      if (result.error.status === 409)
        await queryClient.invalidateQueries({ queryKey: accountKeys.all });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    setBusy(null);
    toast.show({ type: 'info', message: change.doneMessage });
    const { order } = result.data;
    const waits = order.lifecycle && Date.parse(order.lifecycle.effectiveAt) > Date.now();
    if (!waits) void navigate(href(ROUTES.order, { orderId: order.id }));
  };
  return { run, busy };
}

/**
 * "Cancel subscription" (owner): the whole account of `line` ends — at the end of this month, or
 * of the commitment's last month — and its numbers become talutíð. The confirm names the last
 * day and what is still owed (monthsStillOwed × the monthly price).
 */
export function CancelSubscriptionRow({
  line,
  commitmentEndsAt,
  monthlyPrice,
}: {
  /** A number of the account (6 digits): DELETE /subscriptions?line=… */
  line: string;
  commitmentEndsAt: string | null;
  /** What the account costs a month, in øre with VAT; null when unknown. */
  monthlyPrice: number | null;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { run, busy } = useLifecycleChange();

  const cancel = () => {
    const now = new Date();
    const lastDay = lastDayBefore(cancellationEffectiveAt(commitmentEndsAt, now));
    const months = monthsStillOwed(commitmentEndsAt, now);
    const owed =
      months > 0 && monthlyPrice !== null
        ? t('lifecycle.cancel.owed', { count: months, amount: f.kr(months * monthlyPrice) })
        : t('lifecycle.cancel.nothingOwed');
    void run({
      scope: `cancel:${line}`,
      confirm: {
        title: t('lifecycle.cancel.confirmTitle'),
        message: [t('lifecycle.cancel.confirmBody', { date: f.date(lastDay) }), owed].join('\n\n'),
        confirmLabel: t('lifecycle.cancel.confirm'),
        cancelLabel: t('lifecycle.keep'),
        tone: 'danger',
      },
      call: (http, key) => cancelSubscription(http, line, key),
      failedKey: 'lifecycle.cancelFailed',
      doneMessage: t('lifecycle.cancel.done', { date: f.date(lastDay) }),
    });
  };

  return (
    <ListRowButton
      onClick={cancel}
      tone="danger"
      icon={<CloseIcon className="size-5" />}
      label={busy ? t('lifecycle.working') : t('lifecycle.cancel.action')}
    />
  );
}

/**
 * The per-number actions (owner): end the number's plan (it becomes talutíð at month end; on the
 * family member screen this is "remove from the family") and delete the number (it leaves Alda;
 * a talutíð number at once, its credit lost; quarantined afterwards).
 */
export function NumberActionRows({
  member,
  context,
  endPlan = true,
  monthlyPrice,
}: {
  member: Member;
  context: 'manage' | 'familyMember';
  /**
   * Offer ending the number's plan; false on an individual account, where it is the account's
   * cancellation (offered as "Cancel subscription").
   */
  endPlan?: boolean;
  /** What the number costs a month, in øre with VAT (for what is still owed); null when unknown. */
  monthlyPrice: number | null;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { run, busy } = useLifecycleChange();
  const number = formatPhoneNumber(member.phoneNumber);
  const name = `${member.user.firstname} ${member.user.lastname}`;
  const talutid = isTalutid(member);

  const ending = () => {
    const now = new Date();
    const commitment = member.commitmentEndsAt ?? null;
    const lastDay = f.date(lastDayBefore(cancellationEffectiveAt(commitment, now)));
    const months = monthsStillOwed(commitment, now);
    const owed =
      months > 0 && monthlyPrice !== null
        ? t('lifecycle.cancel.owed', { count: months, amount: f.kr(months * monthlyPrice) })
        : null;
    return { lastDay, owed };
  };

  const deactivate = () => {
    const { lastDay, owed } = ending();
    const family = context === 'familyMember';
    void run({
      scope: `deactivate:${member.id}`,
      confirm: {
        title: family
          ? t('lifecycle.remove.confirmTitle', { name })
          : t('lifecycle.deactivate.confirmTitle', { number }),
        message: [
          family
            ? t('lifecycle.remove.confirmBody', { name, number, date: lastDay })
            : t('lifecycle.deactivate.confirmBody', { number, date: lastDay }),
          owed,
        ]
          .filter(Boolean)
          .join('\n\n'),
        confirmLabel: family ? t('lifecycle.remove.confirm') : t('lifecycle.deactivate.confirm'),
        cancelLabel: t('lifecycle.keep'),
        tone: 'danger',
      },
      call: (http, key) => deactivatePlan(http, member.id, key),
      failedKey: 'lifecycle.updateFailed',
      doneMessage: t('lifecycle.deactivate.done', { number, date: lastDay }),
    });
  };

  const remove = () => {
    const { lastDay, owed } = ending();
    const body = talutid
      ? t('lifecycle.deleteNumber.confirmBodyTalutid', {
          number,
          credit: f.kr(member.prepaidBalance ?? 0),
        })
      : t('lifecycle.deleteNumber.confirmBody', { number, date: lastDay });
    void run({
      scope: `delete:${member.id}`,
      confirm: {
        title: t('lifecycle.deleteNumber.confirmTitle', { number }),
        message: [
          body,
          talutid ? null : owed,
          t('lifecycle.deleteNumber.quarantine', { count: NUMBER_QUARANTINE_DAYS }),
        ]
          .filter(Boolean)
          .join('\n\n'),
        confirmLabel: t('lifecycle.deleteNumber.confirm'),
        cancelLabel: t('lifecycle.keep'),
        tone: 'danger',
      },
      call: (http, key) => deleteNumber(http, member.id, key),
      failedKey: 'lifecycle.deleteNumberFailed',
      doneMessage: talutid
        ? t('lifecycle.deleteNumber.doneNow', { number })
        : t('lifecycle.deleteNumber.done', { number, date: lastDay }),
    });
  };

  return (
    <>
      {endPlan && !talutid && (
        <ListRowButton
          onClick={deactivate}
          tone="danger"
          icon={<CloseIcon className="size-5" />}
          label={
            busy === `deactivate:${member.id}`
              ? t('lifecycle.working')
              : context === 'familyMember'
                ? t('lifecycle.remove.action')
                : t('lifecycle.deactivate.action')
          }
        />
      )}
      <ListRowButton
        onClick={remove}
        tone="danger"
        icon={<TrashIcon className="size-5" />}
        label={
          busy === `delete:${member.id}`
            ? t('lifecycle.working')
            : t('lifecycle.deleteNumber.action')
        }
      />
    </>
  );
}

/**
 * A change of the number waiting for its time (member.pendingChange): what happens when, with
 * "Undo" (POST /orders/{id}/withdraw) while it still waits.
 */
export function PendingChangeNotice({
  member,
  withName = false,
}: {
  member: Member;
  /** Name the member (the family screen lists several). */
  withName?: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const toast = useToast();
  const queryClient = useQueryClient();
  const failure = useLifecycleFailure();
  const plans = usePlansQuery();
  const [undoing, setUndoing] = useState(false);
  const change = member.pendingChange;
  if (!change) return null;

  const lastDay = f.date(lastDayBefore(change.effectiveAt));
  const text = (() => {
    switch (change.action) {
      case 'cancel_subscription':
      case 'deactivate_plan':
        return t('lifecycle.pending.ends', { date: lastDay });
      case 'delete_number':
        return t('lifecycle.pending.deleted', { date: lastDay });
      case 'port_out':
        return t('lifecycle.pending.portOut', { date: f.date(change.effectiveAt) });
      case 'plan_downgrade':
      case 'plan_upgrade': {
        const plan = plans.data ? findPlan(plans.data, change.planId) : null;
        return plan
          ? t('lifecycle.pending.planChange', { plan: plan.name, date: f.date(change.effectiveAt) })
          : t('lifecycle.pending.planChangeUnnamed', { date: f.date(change.effectiveAt) });
      }
      default:
        return t('lifecycle.pending.other', { date: f.date(change.effectiveAt) });
    }
  })();

  const undo = async () => {
    setUndoing(true);
    const result = await withdrawOrder(http, change.orderId);
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    setUndoing(false);
    if (!result.ok) {
      toast.show({ type: 'error', message: failure(result.error, 'lifecycle.undoFailed') });
      return;
    }
    toast.show({ type: 'info', message: t('lifecycle.pending.undone') });
  };

  return (
    <Alert
      tone="warning"
      title={
        withName
          ? `${member.user.firstname} ${member.user.lastname} · ${formatPhoneNumber(member.phoneNumber)}`
          : undefined
      }
    >
      <p>{text}</p>
      <div>
        <Button size="md" variant="secondary" loading={undoing} onClick={() => void undo()}>
          {t('lifecycle.pending.undo')}
        </Button>
      </div>
    </Alert>
  );
}
