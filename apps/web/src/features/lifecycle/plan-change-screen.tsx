import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { isSmallerPlan, planChangeEffectiveAt, rolloverLost } from '@alda/contract/rules/lifecycle';
import { findPlan } from '@alda/contract/rules/plans';
import type { Plan } from '@alda/contract/schemas/plans';
import type { Account, SubscriptionDetailResponse } from '@alda/contract/schemas/subscriptions';
import { accountsOf } from '@/shared/account/family';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import {
  useOrdersQuery,
  usePlansQuery,
  useSubscriptionDetailQuery,
  useSubscriptionsQuery,
} from '@/shared/api/account-queries';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { PendingChangeNotice } from '@/shared/lifecycle/lifecycle-actions';
import {
  accountMonthlyPrice,
  blockingOrderOf,
  changePlan,
  planSize,
  useIdempotencyKeys,
  useLifecycleFailure,
} from '@/shared/lifecycle/lifecycle-api';
import { useAppServices } from '@/shared/services/app-services';
import { LayersIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Badge } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { cx } from '@/shared/ui/cx';
import { useModal } from '@/shared/ui/modal/modal-context';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';

/**
 * dagfor-hald/:id (SPEC §2 subscription-update, owner only, no footer): another plan for the
 * account of number `:id` (ADR 0056). It lists the other offered plans of the same type; a bigger
 * one takes effect at once, a smaller one at month end and deletes the data rollover, which the
 * screen names with the amount at stake. While an order of the account is open or a change waits,
 * it says why nothing can be changed (SPEC §4) instead of offering plans.
 */
export function PlanChangeScreen() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const detail = useSubscriptionDetailQuery(id);
  const plans = usePlansQuery();
  const subscriptions = useSubscriptionsQuery();
  const orders = useOrdersQuery();

  const body = () => {
    if (detail.data === undefined) return <QueryPending query={detail} />;
    if (plans.data === undefined) return <QueryPending query={plans} />;
    const { member, plan } = detail.data;
    const account = subscriptions.data
      ? (accountsOf(subscriptions.data).find((a) => a.members.some((m) => m.id === member.id)) ??
        null)
      : null;
    const blocked = account
      ? blockingOrderOf(account, orders.data)
      : member.pendingChange
        ? { kind: 'pending' as const, orderId: member.pendingChange.orderId }
        : member.status === 'processing'
          ? { kind: 'processing' as const, orderId: null }
          : null;
    const pendingMember = account?.members.find((m) => m.pendingChange) ?? member;

    const current = plan ?? findPlan(plans.data, member.planId);
    const type = plans.data.find((entry) => entry.type === detail.data.accountType);
    const others = (type?.dataPlanResponses ?? []).filter((p) => p.planId !== current?.planId);
    const members = account?.members.length ?? 1;

    return (
      <>
        <p className="text-body text-mist-700">
          {t('lifecycle.planChange.intro', { number: formatPhoneNumber(member.phoneNumber) })}
        </p>
        {current && <CurrentPlan plan={current} members={members} />}
        {blocked ? (
          <Blocked
            kind={blocked.kind}
            orderId={blocked.orderId}
            notice={
              blocked.kind === 'pending' ? <PendingChangeNotice member={pendingMember} /> : null
            }
          />
        ) : detail.data.accountType === 'prepaid' || !current || others.length === 0 ? (
          <EmptyState
            icon={<LayersIcon />}
            title={t('lifecycle.planChange.noneTitle')}
            body={
              detail.data.accountType === 'prepaid'
                ? t('lifecycle.planChange.prepaidBody')
                : t('lifecycle.planChange.noneBody')
            }
          />
        ) : (
          <ChoosePlan detail={detail.data} current={current} others={others} account={account} />
        )}
      </>
    );
  };

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('lifecycle.planChange.title')} back />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

function CurrentPlan({ plan, members }: { plan: Plan; members: number }) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <Card className="flex flex-col gap-1" role="region" aria-labelledby="plan-change-current">
      <span id="plan-change-current" className="text-caption font-semibold text-mist-500">
        {t('lifecycle.planChange.current')}
      </span>
      <span className="text-lead font-bold text-ocean-950">{plan.name}</span>
      <span className="text-caption text-mist-600">
        {t('lifecycle.planChange.planLine', {
          price: f.kr(accountMonthlyPrice(plan, members)),
          data: f.data(plan.dataMb),
        })}
      </span>
    </Card>
  );
}

/** SPEC §4 "Plan changes are blocked while orders are processing": why, and the order to see. */
function Blocked({
  kind,
  orderId,
  notice,
}: {
  kind: 'pending' | 'processing';
  orderId: string | null;
  notice: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-3">
      <Alert
        tone="info"
        title={
          kind === 'pending'
            ? t('lifecycle.planChange.blockedPendingTitle')
            : t('lifecycle.planChange.blockedTitle')
        }
      >
        <p>
          {kind === 'pending'
            ? t('lifecycle.planChange.blockedPendingBody')
            : t('lifecycle.planChange.blockedBody')}
        </p>
        {orderId && (
          <Link
            to={href(ROUTES.order, { orderId })}
            className="font-semibold text-ocean-700 underline underline-offset-2"
          >
            {t('lifecycle.planChange.seeOrder')}
          </Link>
        )}
      </Alert>
      {notice}
    </div>
  );
}

function ChoosePlan({
  detail,
  current,
  others,
  account,
}: {
  detail: SubscriptionDetailResponse;
  current: Plan;
  others: Plan[];
  account: Account | null;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const modal = useModal();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const failure = useLifecycleFailure();
  const keys = useIdempotencyKeys();
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [pending, setPending] = useState(false);
  const { member } = detail;
  const members = account?.members.length ?? 1;

  const effect = (to: Plan) => {
    const now = new Date();
    const smaller = isSmallerPlan(planSize(current), planSize(to));
    const price = f.kr(accountMonthlyPrice(to, members));
    if (!smaller)
      return {
        smaller,
        when: t('lifecycle.planChange.now'),
        price: t('lifecycle.planChange.priceNow', { price }),
        rollover: null,
      };
    const date = f.date(planChangeEffectiveAt(planSize(current), planSize(to), now));
    const lost = rolloverLost(member.dataRemaining.domestic, current.dataMb);
    return {
      smaller,
      when: t('lifecycle.planChange.onDate', { date }),
      price: t('lifecycle.planChange.priceFrom', { price, date }),
      rollover: [
        lost > 0
          ? t('lifecycle.planChange.rolloverLost', { amount: f.data(lost) })
          : t('lifecycle.planChange.rolloverDeleted'),
        member.rolloverMb > 0
          ? t('lifecycle.planChange.rolloverNow', { amount: f.data(member.rolloverMb) })
          : null,
      ]
        .filter(Boolean)
        .join(' '),
    };
  };

  const submit = async () => {
    if (!chosen || pending) return;
    const what = effect(chosen);
    const confirmed = await modal.confirm({
      title: t('lifecycle.planChange.confirmTitle', { plan: chosen.name }),
      message: [what.when, what.rollover, what.price].filter(Boolean).join('\n\n'),
      confirmLabel: t('lifecycle.planChange.confirm'),
      tone: what.smaller ? 'warning' : undefined,
    });
    if (!confirmed) return;
    const scope = `plan:${member.id}:${chosen.planId}`;
    setPending(true);
    const result = await changePlan(http, member.id, chosen.planId, keys.keyFor(scope));
    keys.settle(scope, result);
    if (!result.ok) {
      setPending(false);
      toast.show({ type: 'error', message: failure(result.error, 'lifecycle.updateFailed') });
      // Blocked meanwhile (an order, another device): show the account as it is now.
      if (result.error.status === 409)
        await queryClient.invalidateQueries({ queryKey: accountKeys.all });
      return;
    }
    await queryClient.invalidateQueries({ queryKey: accountKeys.all });
    void navigate(href(ROUTES.order, { orderId: result.data.order.id }), { replace: true });
  };

  const what = chosen ? effect(chosen) : null;

  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-lead font-bold text-ocean-950">
          {t('lifecycle.planChange.choose')}
        </legend>
        {others.map((plan) => {
          const smaller = isSmallerPlan(planSize(current), planSize(plan));
          const checked = chosen?.planId === plan.planId;
          return (
            <label
              key={plan.planId}
              className={cx(
                'flex cursor-pointer items-start gap-3 rounded-card bg-white p-4 shadow-card ring-2 transition-colors',
                checked ? 'ring-fjord-500' : 'ring-transparent',
              )}
            >
              <input
                type="radio"
                name="plan"
                value={plan.planId}
                checked={checked}
                onChange={() => setChosen(plan)}
                className="mt-1 size-5 shrink-0 accent-fjord-600"
              />
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="flex items-center justify-between gap-2">
                  <span className="text-body font-semibold text-mist-900">{plan.name}</span>
                  <Badge tone={smaller ? 'warning' : 'success'}>
                    {smaller ? t('lifecycle.planChange.smaller') : t('lifecycle.planChange.bigger')}
                  </Badge>
                </span>
                <span className="text-caption text-mist-600">
                  {t('lifecycle.planChange.planLine', {
                    price: f.kr(accountMonthlyPrice(plan, members)),
                    data: f.data(plan.dataMb),
                  })}
                </span>
              </span>
            </label>
          );
        })}
      </fieldset>

      {what && (
        <section
          aria-live="polite"
          aria-label={t('lifecycle.planChange.whatHappens')}
          className="flex flex-col gap-3"
        >
          <Alert tone={what.smaller ? 'info' : 'success'} title={what.when}>
            <p>{what.price}</p>
          </Alert>
          {what.rollover && (
            <Alert tone="warning" title={t('lifecycle.planChange.rolloverTitle')}>
              <p>{what.rollover}</p>
            </Alert>
          )}
        </section>
      )}

      <Button type="submit" block size="lg" loading={pending} disabled={!chosen}>
        {t('lifecycle.planChange.submit')}
      </Button>
    </form>
  );
}
