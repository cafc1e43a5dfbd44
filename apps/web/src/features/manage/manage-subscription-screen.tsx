import { useParams } from 'react-router';
import type { Member } from '@alda/contract/schemas/subscriptions';
import { useTranslation } from 'react-i18next';
import { domesticUsage, euUsage } from '@/shared/account/data-usage';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { findNumber } from '@/shared/account/family';
import { MemberHeader } from '@/shared/account/member-header';
import { MeterRow } from '@/shared/account/meter-row';
import { PlanPriceCard } from '@/shared/account/plan-price-card';
import { ProcessingBadge } from '@/shared/account/processing-badge';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { UpdatedAt } from '@/shared/account/updated-at';
import { useSubscriptionDetailQuery, useSubscriptionsQuery } from '@/shared/api/account-queries';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import {
  CancelSubscriptionRow,
  isTalutid,
  NumberActionRows,
  PendingChangeNotice,
} from '@/shared/lifecycle/lifecycle-actions';
import {
  BagIcon,
  ChartIcon,
  FamilyIcon,
  LayersIcon,
  SimIcon,
  WalletIcon,
} from '@/shared/ui/account-icons';
import { Badge } from '@/shared/ui/badge';
import { MessageIcon, PlaneIcon } from '@/shared/ui/icons';
import { Card } from '@/shared/ui/card';
import { ListGroup, ListRowLink } from '@/shared/ui/list-row';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { SimSection } from '@/shared/sim/sim-section';
import { newConversationHref } from '@/shared/support/write-to-us-link';
import { EuPackageToggle } from './eu-package-toggle';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

/**
 * umsit-hald/:phoneNumber (home-manage, owner only, SPEC §2): one number's subscription — who
 * it is for, its plan and monthly price with and without VAT, its data, its SIM and phone-book
 * listing (SPEC §1) and its settings. For the owner, its lifecycle (ADR 0056): change the plan,
 * go to a family plan (an individual account), cancel (an individual account; a family is
 * cancelled on the family screen), end the number's plan (it becomes talutíð), delete the number,
 * and a change waiting for month end with its undo.
 */
export function ManageSubscriptionScreen() {
  const { phoneNumber = '' } = useParams();
  const { t } = useTranslation();
  const subscriptions = useSubscriptionsQuery();
  const found = subscriptions.data ? findNumber(subscriptions.data, phoneNumber) : null;
  const detail = useSubscriptionDetailQuery(found ? found.member.id : null);

  const body = () => {
    if (subscriptions.data === undefined) return <QueryPending query={subscriptions} />;
    if (!found)
      return (
        <EmptyState
          icon={<SimIcon />}
          title={t('manage.notFoundTitle')}
          body={t('manage.notFoundBody', { number: formatPhoneNumber(phoneNumber) })}
        />
      );
    if (detail.data === undefined) return <QueryPending query={detail} />;
    const { member, plan, monthlyPrice, euPackage, accountType, isOwner } = detail.data;
    const talutid = accountType === 'prepaid' || isTalutid(member);
    // One change at a time (ADR 0056): while one waits or the number is set up, only its undo.
    const canChange = isOwner && member.status === 'active' && !member.pendingChange;
    return (
      <>
        <MemberHeader
          firstname={member.user.firstname}
          lastname={member.user.lastname}
          phoneNumber={member.phoneNumber}
          badges={
            <>
              <Badge tone="info">{t(`planTypes.${accountType}`)}</Badge>
              {member.status === 'processing' && <ProcessingBadge />}
              {member.status === 'cancelled' && (
                <Badge tone="danger">{t('lineStatus.cancelled')}</Badge>
              )}
            </>
          }
        />
        {isOwner && <PendingChangeNotice member={member} />}
        <PlanPriceCard
          plan={plan}
          type={accountType}
          monthlyPrice={monthlyPrice}
          euPackage={euPackage}
        />
        <DataCard member={member} euAllowance={plan?.euPackage?.dataMb ?? null} />
        {detail.data.isOwner && plan?.euPackage && (
          <EuPackageToggle
            on={euPackage}
            offer={plan.euPackage}
            line={found.account.currentMember.phoneNumber}
          />
        )}
        <SimSection lineId={member.id} />
        {plan && plan.commitmentMonths > 0 && (
          <DetailList title={t('manage.settings')}>
            <DetailRow label={t('plan.commitment')}>
              {t('plan.months', { count: plan.commitmentMonths })}
            </DetailRow>
          </DetailList>
        )}
        <ListGroup>
          <ListRowLink
            to={href(ROUTES.usageHistory, { id: member.id })}
            icon={<ChartIcon className="size-5" />}
            label={t('usageHistory.link')}
          />
          {member.roaming && member.status !== 'cancelled' && (
            <ListRowLink
              to={href(ROUTES.roamingCap, { lineId: member.id })}
              icon={<PlaneIcon className="size-5" />}
              label={t('roamingCap.link')}
            />
          )}
          {member.status === 'active' && (
            <ListRowLink
              to={href(ROUTES.buyPackage, {}, { [QUERY.line]: member.phoneNumber })}
              icon={<BagIcon className="size-5" />}
              label={t('packages.title')}
            />
          )}
          {member.status === 'active' &&
            member.prepaidBalance !== null &&
            member.prepaidBalance !== undefined && (
              <ListRowLink
                to={href(ROUTES.topUp, {}, { [QUERY.line]: member.phoneNumber })}
                icon={<WalletIcon className="size-5" />}
                label={t('topUp.title')}
              />
            )}
          {found.account.type === 'family_plan' && (
            <ListRowLink
              to={ROUTES.manageFamily}
              icon={<LayersIcon className="size-5" />}
              label={t('manage.family')}
            />
          )}
          <ListRowLink
            to={ROUTES.plans}
            icon={<LayersIcon className="size-5" />}
            label={t('manage.plans')}
          />
          <ListRowLink
            to={newConversationHref({ type: 'line', id: member.phoneNumber })}
            icon={<MessageIcon className="size-5" />}
            label={t('support.writeAbout')}
          />
        </ListGroup>
        {canChange && (
          <ListGroup title={t('lifecycle.section')}>
            {!talutid && (
              <ListRowLink
                to={href(ROUTES.planChange, { id: member.id })}
                icon={<LayersIcon className="size-5" />}
                label={t('lifecycle.planChange.action')}
              />
            )}
            {accountType === 'individual_plan' && (
              <ListRowLink
                to={ROUTES.individualToFamily}
                icon={<FamilyIcon className="size-5" />}
                label={t('lifecycle.toFamily')}
              />
            )}
            {accountType === 'individual_plan' && (
              <CancelSubscriptionRow
                line={member.phoneNumber}
                commitmentEndsAt={member.commitmentEndsAt ?? null}
                monthlyPrice={monthlyPrice?.gross ?? null}
              />
            )}
            <NumberActionRows
              member={member}
              context="manage"
              endPlan={accountType === 'family_plan'}
              monthlyPrice={monthlyPrice?.gross ?? null}
            />
          </ListGroup>
        )}
      </>
    );
  };

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('manage.title')} back={ROUTES.home} />
      <ScreenBody>{body()}</ScreenBody>
    </main>
  );
}

/** Data of the number as two bars (domestic, EU) with their figures. */
function DataCard({ member, euAllowance }: { member: Member; euAllowance: number | null }) {
  const { t } = useTranslation();
  const domestic = domesticUsage(member);
  const eu = euUsage(member, euAllowance);
  return (
    <Card className="flex flex-col gap-4" role="region" aria-labelledby="manage-data-title">
      <h2 id="manage-data-title" className="text-lead font-bold text-ocean-950">
        {t('manage.data')}
      </h2>
      <MeterRow
        label={t('data.domestic')}
        usage={domestic}
        tone={domestic.low ? 'puffin' : 'fjord'}
      />
      {eu && <MeterRow label={t('data.eu')} usage={eu} tone={eu.low ? 'puffin' : 'ocean'} />}
      {member.dataUpdatedAt && (
        <UpdatedAt instant={member.dataUpdatedAt} className="text-caption text-mist-500" />
      )}
    </Card>
  );
}
