import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DataSummary } from '@/shared/account/data-summary';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { MemberHeader } from '@/shared/account/member-header';
import { PlanPriceCard } from '@/shared/account/plan-price-card';
import { ProcessingBadge } from '@/shared/account/processing-badge';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import { useSubscriptionDetailQuery } from '@/shared/api/account-queries';
import { useFormatters } from '@/shared/format/use-formatters';
import { NumberActionRows, PendingChangeNotice } from '@/shared/lifecycle/lifecycle-actions';
import { ChartIcon, SettingsIcon } from '@/shared/ui/account-icons';
import { UserIcon } from '@/shared/ui/icons';
import { Badge } from '@/shared/ui/badge';
import { Card } from '@/shared/ui/card';
import { ListGroup, ListRowLink } from '@/shared/ui/list-row';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { href, ROUTES } from '@/shared/config/paths';
import { NumberLockRow } from '@/shared/protection/number-lock-row';
import { MemberControls } from './member-controls';

/**
 * familju-limur/:id (home-familymember, owner only, SPEC §2): one family member's number — their
 * data this month, plan and price, SIM and phone-book settings, and for the owner the member's
 * lifecycle (ADR 0056): move the number to a plan of its own, remove it from the family (it
 * becomes talutíð at month end), delete the number, and a waiting change with its undo.
 */
export function FamilyMemberScreen() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const f = useFormatters();
  const detail = useSubscriptionDetailQuery(id);

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('family.title')} back={ROUTES.home} />
      <ScreenBody>
        {detail.data === undefined ? (
          detail.isError ? (
            <QueryError
              error={detail.error}
              onRetry={() => void detail.refetch()}
              retrying={detail.isFetching}
            />
          ) : (
            <DetailSkeleton />
          )
        ) : (
          <>
            <MemberHeader
              firstname={detail.data.member.user.firstname}
              lastname={detail.data.member.user.lastname}
              phoneNumber={detail.data.member.phoneNumber}
              badges={
                <>
                  <Badge tone="info">{t('family.badge')}</Badge>
                  {detail.data.member.status === 'processing' && <ProcessingBadge />}
                  {detail.data.member.status === 'cancelled' && (
                    <Badge tone="danger">{t('lineStatus.cancelled')}</Badge>
                  )}
                  {detail.data.member.controls?.dataPaused && (
                    <Badge tone="warning">{t('family.controls.badge')}</Badge>
                  )}
                </>
              }
            />
            {detail.data.isOwner && <PendingChangeNotice member={detail.data.member} />}
            <Card role="region" aria-label={t('data.ring.label')}>
              <DataSummary member={detail.data.member} ringSize={184} />
            </Card>
            {/* Only a member's number carries controls (the API's rule, ADR 0068). */}
            {detail.data.isOwner &&
              detail.data.member.controls &&
              detail.data.member.status === 'active' && (
                <MemberControls member={detail.data.member} />
              )}
            <PlanPriceCard
              plan={detail.data.plan}
              type={detail.data.accountType}
              monthlyPrice={detail.data.monthlyPrice}
              euPackage={detail.data.euPackage}
            />
            <DetailList title={t('family.details')}>
              <DetailRow label={t('sim.label')}>{t(`sim.${detail.data.member.simType}`)}</DetailRow>
              <DetailRow label={t('phoneBook.label')}>
                {detail.data.member.phoneBookVisible ? t('phoneBook.shown') : t('phoneBook.hidden')}
              </DetailRow>
              {detail.data.member.expiresAt && (
                <DetailRow label={t('family.expires')}>
                  {f.date(detail.data.member.expiresAt)}
                </DetailRow>
              )}
            </DetailList>
            <ListGroup>
              <ListRowLink
                to={href(ROUTES.usageHistory, { id: detail.data.member.id })}
                icon={<ChartIcon className="size-5" />}
                label={t('usageHistory.link')}
              />
              <ListRowLink
                to={href(ROUTES.manageSubscription, {
                  phoneNumber: detail.data.member.phoneNumber,
                })}
                icon={<SettingsIcon className="size-5" />}
                label={t('family.manage')}
              />
              <NumberLockRow lineId={detail.data.member.id} />
            </ListGroup>
            {detail.data.isOwner &&
              detail.data.member.status === 'active' &&
              !detail.data.member.pendingChange && (
                <ListGroup title={t('lifecycle.section')}>
                  {detail.data.accountType === 'family_plan' && (
                    <ListRowLink
                      to={href(ROUTES.transferFamilyMember, { id: detail.data.member.id })}
                      icon={<UserIcon className="size-5" />}
                      label={t('lifecycle.moveToOwnPlan')}
                    />
                  )}
                  <NumberActionRows
                    member={detail.data.member}
                    context={detail.data.accountType === 'family_plan' ? 'familyMember' : 'manage'}
                    monthlyPrice={detail.data.monthlyPrice?.gross ?? null}
                  />
                </ListGroup>
              )}
          </>
        )}
      </ScreenBody>
    </main>
  );
}
