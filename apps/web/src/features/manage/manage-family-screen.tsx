import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { memberPriceAt } from '@alda/contract/rules/family';
import { findPlan } from '@alda/contract/rules/plans';
import type { Order } from '@alda/contract/schemas/orders';
import type { Plan } from '@alda/contract/schemas/plans';
import type { Account } from '@alda/contract/schemas/subscriptions';
import { familyAccountOf, familyOverview } from '@/shared/account/family';
import { PlanHeading } from '@/shared/account/plan-heading';
import { Price } from '@/shared/account/price';
import { ProcessingStatus } from '@/shared/account/processing-badge';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import {
  useOrdersQuery,
  usePlanQuery,
  useSubscriptionsQuery,
  usePlansQuery,
} from '@/shared/api/account-queries';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import {
  CancelSubscriptionRow,
  latestCommitmentEnd,
  PendingChangeNotice,
} from '@/shared/lifecycle/lifecycle-actions';
import { FamilyIcon, LayersIcon } from '@/shared/ui/account-icons';
import { Avatar } from '@/shared/ui/avatar';
import { Badge } from '@/shared/ui/badge';
import { ButtonLink } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ChevronRightIcon, UserIcon } from '@/shared/ui/icons';
import { ListGroup, ListRowLink } from '@/shared/ui/list-row';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * umsit-familju-hald (home-manage-family, owner only, SPEC §2): the family plan — plan, what each
 * member costs (SPEC §4: memberPrices by position) and the month's total with and without VAT,
 * capacity and the next member's price, and the members being added. For the owner, the
 * family's lifecycle (ADR 0056): add a member, change the plan, go to an individual plan (one
 * member left), cancel, and the changes waiting for month end with their undo; a member's own
 * number is moved or removed on its member screen.
 */
export function ManageFamilyScreen() {
  const { t } = useTranslation();
  const subscriptions = useSubscriptionsQuery();
  const orders = useOrdersQuery();
  const plans = usePlansQuery();
  const account = subscriptions.data ? familyAccountOf(subscriptions.data) : null;
  const plan = usePlanQuery(account?.planId ?? null);

  const body = () => {
    if (subscriptions.data === undefined) return <QueryPending query={subscriptions} />;
    if (!account)
      return (
        <EmptyState
          icon={<FamilyIcon />}
          title={t('manageFamily.noneTitle')}
          body={t('manageFamily.noneBody')}
          action={
            <ButtonLink to={ROUTES.plans} size="md" variant="secondary">
              {t('manageFamily.seePlans')}
            </ButtonLink>
          }
        />
      );
    const processing = familyOverview(subscriptions.data, orders.data, plans.data).processing;
    const familyPlan = plan.data ?? (plans.data ? findPlan(plans.data, account.planId) : null);
    return (
      <FamilyPlan
        account={account}
        plan={familyPlan ?? null}
        processing={processing}
        isOwner={subscriptions.data.isOwner}
      />
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('manageFamily.title')} back={ROUTES.home} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

function FamilyPlan({
  account,
  plan,
  processing,
  isOwner,
}: {
  account: Account;
  plan: Plan | null;
  processing: Order[];
  isOwner: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const family = account.family;
  const prices = plan
    ? account.members.map((_, index) => memberPriceAt(plan.memberPrices, index))
    : [];
  const total = prices.reduce((sum, price) => sum + price, 0);
  const maxMembers = family?.maxMembers ?? plan?.maxMembers ?? null;
  // Each waiting change once (a cancellation waits on every number of the account).
  const pending = account.members.filter(
    (m, index, all) =>
      m.pendingChange &&
      all.findIndex((o) => o.pendingChange?.orderId === m.pendingChange?.orderId) === index,
  );
  // One change at a time (ADR 0056): while one waits, only its undo.
  const canChange = isOwner && pending.length === 0;
  const canAdd = isOwner && family?.canAddMember === true;

  return (
    <>
      <Card className="flex flex-col gap-4" role="region" aria-labelledby="family-plan-title">
        <PlanHeading
          titleId="family-plan-title"
          typeLabel={t('planTypes.family_plan')}
          plan={plan}
          dataLine={plan && t('manageFamily.dataEach', { data: f.data(plan.dataMb) })}
          badge={account.euPackage && <Badge tone="success">{t('roaming.euShort')}</Badge>}
        />
        {maxMembers !== null && (
          <p className="text-body text-mist-700">
            {t('home.family.capacity', { count: account.members.length, max: maxMembers })}
          </p>
        )}
        {plan && (
          <div className="flex flex-col gap-1 rounded-2xl bg-mist-50 px-4 py-3">
            <span className="text-caption font-semibold text-mist-600">
              {t('manageFamily.total')}
            </span>
            <Price price={total} perMonth size="lg" />
          </div>
        )}
        {family?.canAddMember && family.nextMemberPrice !== null && (
          <p className="text-caption text-mist-600">
            {t('manageFamily.nextMember', {
              price: f.kr(family.nextMemberPrice, { sign: 'always', decimals: 'auto' }),
            })}
          </p>
        )}
        {family && !family.canAddMember && (
          <p className="text-caption text-mist-600">{t('manageFamily.full')}</p>
        )}
      </Card>

      {isOwner &&
        pending.map((member) => (
          <PendingChangeNotice
            key={member.id}
            member={member}
            withName={member.pendingChange?.action !== 'cancel_subscription'}
          />
        ))}

      <section aria-labelledby="family-members-title" className="flex flex-col gap-2">
        <h2
          id="family-members-title"
          className="px-1 text-caption font-semibold tracking-wide text-mist-500 uppercase"
        >
          {t('manageFamily.members')}
        </h2>
        <ul className="divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card">
          {account.members.map((member, index) => {
            return (
              <li key={member.id}>
                <Link
                  to={
                    member.id === account.currentMember.id
                      ? href(ROUTES.manageSubscription, { phoneNumber: member.phoneNumber })
                      : href(ROUTES.familyMember, { id: member.id })
                  }
                  className="flex items-center gap-3 px-4 py-3.5 hover:bg-mist-50"
                >
                  <Avatar firstname={member.user.firstname} lastname={member.user.lastname} />
                  <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <span className="text-body font-semibold text-mist-900">
                      {`${member.user.firstname} ${member.user.lastname}`}
                      {member.id === account.currentMember.id && (
                        <span className="font-normal text-mist-500">{` · ${t('manageFamily.you')}`}</span>
                      )}
                    </span>
                    <span className="flex flex-wrap items-baseline justify-between gap-x-2 text-caption text-mist-500 tabular-nums">
                      <span>{formatPhoneNumber(member.phoneNumber)}</span>
                      {prices[index] !== undefined && (
                        <span className="shrink-0 text-body font-semibold text-mist-900">
                          {f.kr(prices[index])}
                        </span>
                      )}
                    </span>
                  </span>
                  <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
                </Link>
              </li>
            );
          })}
          {processing.map((order) => (
            <li key={order.id} className="flex items-center gap-3 px-4 py-3.5">
              <span className="flex size-11 shrink-0 items-center justify-center rounded-full border-2 border-dashed border-mist-300 text-mist-400">
                <FamilyIcon className="size-5" />
              </span>
              <span className="flex min-w-0 flex-1 flex-col items-start gap-1">
                <span className="text-body font-semibold text-mist-900">
                  {order.memberName ??
                    (order.phoneNumber
                      ? formatPhoneNumber(order.phoneNumber)
                      : t('home.family.newMember'))}
                </span>
                <ProcessingStatus />
              </span>
            </li>
          ))}
        </ul>
        {plan && <p className="px-1 text-caption text-mist-500">{t('manageFamily.priceNote')}</p>}
      </section>

      {(canAdd || canChange) && (
        <ListGroup title={t('lifecycle.section')}>
          {canAdd && (
            <ListRowLink
              to={ROUTES.addFamilyMember}
              icon={<FamilyIcon className="size-5" />}
              label={t('lifecycle.addMember')}
              value={
                family && family.nextMemberPrice !== null
                  ? f.kr(family.nextMemberPrice, { sign: 'always', decimals: 'auto' })
                  : undefined
              }
            />
          )}
          {canChange && (
            <ListRowLink
              to={href(ROUTES.planChange, { id: account.currentMember.id })}
              icon={<LayersIcon className="size-5" />}
              label={t('lifecycle.planChange.action')}
            />
          )}
          {canChange && account.members.length === 1 && (
            <ListRowLink
              to={ROUTES.familyToIndividual}
              icon={<UserIcon className="size-5" />}
              label={t('lifecycle.toIndividual')}
            />
          )}
          {canChange && (
            <CancelSubscriptionRow
              line={account.currentMember.phoneNumber}
              commitmentEndsAt={latestCommitmentEnd(account.members)}
              monthlyPrice={plan ? total : null}
            />
          )}
        </ListGroup>
      )}
    </>
  );
}
