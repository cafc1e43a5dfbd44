import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ROAMING } from '@alda/contract/constants';
import type { Plan } from '@alda/contract/schemas/plans';
import type { Member } from '@alda/contract/schemas/subscriptions';
import { euUsage } from '@/shared/account/data-usage';
import { MeterRow } from '@/shared/account/meter-row';
import { Price } from '@/shared/account/price';
import { Badge } from '@/shared/ui/badge';
import { CallIcon, DataIcon, MessageIcon, PlaneIcon } from '@/shared/ui/icons';
import { buttonClasses } from '@/shared/ui/button';
import { useFormatters } from '@/shared/format/use-formatters';
import { href, QUERY, ROUTES } from '@/shared/config/paths';

/** The roaming offer's three facts (SPEC §1, §9): calls, SMS and data abroad. */
export function RoamingFacts({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className={compact ? 'flex flex-wrap gap-2' : 'flex flex-col gap-2'}>
      <Fact compact={compact} icon={<CallIcon className="size-5" />}>
        {t('roaming.calls', { hours: ROAMING.callHours })}
      </Fact>
      {ROAMING.freeSms && (
        <Fact compact={compact} icon={<MessageIcon className="size-5" />}>
          {t('roaming.sms')}
        </Fact>
      )}
      <Fact compact={compact} icon={<DataIcon className="size-5" />}>
        {t('roaming.data', { gb: ROAMING.dataGb })}
      </Fact>
    </ul>
  );
}

function Fact({
  icon,
  compact,
  children,
}: {
  icon: ReactNode;
  compact: boolean;
  children: ReactNode;
}) {
  return (
    <li
      className={
        compact
          ? 'flex items-center gap-1.5 rounded-full bg-mist-50 py-1.5 pr-3 pl-2 text-caption font-semibold text-mist-800'
          : 'flex items-center gap-3 rounded-2xl bg-mist-50 px-4 py-3 text-body font-semibold text-mist-900'
      }
    >
      <span className="text-fjord-600">{icon}</span>
      {children}
    </li>
  );
}

/**
 * Abroad (SPEC §1 roaming offer): with the EU package on, what is left of its data; without it,
 * the offer itself and what it costs on the customer's plan. Turning the package on is a later
 * flow, so no button here.
 */
export function RoamingCard({
  member,
  euPackageOn,
  plan,
  isOwner,
}: {
  member: Member;
  euPackageOn: boolean;
  plan: Plan | null;
  /** The caller owns the number's account: may raise its roaming cap (ADR 0078). */
  isOwner: boolean;
}) {
  const { t } = useTranslation();
  const usage = euPackageOn ? euUsage(member, plan?.euPackage?.dataMb) : null;
  const capRow = member.roaming && (member.roaming.chargedOere > 0 || member.roaming.stopped) && (
    <CapRow member={member} isOwner={isOwner} />
  );
  return (
    <section
      aria-labelledby="roaming-title"
      className="flex flex-col gap-4 rounded-card bg-white p-5 shadow-card"
    >
      <div className="flex items-center gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-ocean-50 text-ocean-700">
          <PlaneIcon />
        </span>
        <div className="flex min-w-0 flex-1 flex-col">
          <h2 id="roaming-title" className="text-lead font-bold text-ocean-950">
            {t('roaming.title')}
          </h2>
          <p className="text-caption text-mist-500">{t('roaming.where')}</p>
        </div>
        {euPackageOn && <Badge tone="success">{t('roaming.on')}</Badge>}
      </div>

      {usage ? (
        <MeterRow
          label={t('roaming.dataLeft')}
          usage={usage}
          tone={usage.low ? 'puffin' : 'ocean'}
        />
      ) : (
        <p className="text-body text-mist-600">{t('roaming.offer')}</p>
      )}

      {/* With the EU package the charges follow its data; without, the offer's facts first. */}
      {usage && capRow}

      <RoamingFacts compact />

      {!usage && capRow}

      {!euPackageOn && plan?.euPackage && (
        <div className="flex flex-col gap-1 rounded-2xl bg-ocean-50 px-4 py-3">
          <span className="text-caption font-semibold text-ocean-800">
            {t('roaming.priceOnPlan')}
          </span>
          <Price price={plan.euPackage.price} perMonth />
        </div>
      )}
    </section>
  );
}

/**
 * This month's roaming charges against the number's spend cap (issue 33 §2, ADR 0078), shown once
 * something is charged; when the cap stopped data abroad, says so with one tap to go on: the
 * owner raises the cap (the cap screen asks the confirmation at once), a member asks the owner.
 */
function CapRow({ member, isOwner }: { member: Member; isOwner: boolean }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const roaming = member.roaming;
  if (!roaming) return null;
  const kr = (oere: number) => f.kr(oere, { decimals: 'auto' });
  const cap = kr(roaming.capOere ?? 0);
  const screen = href(ROUTES.roamingCap, { lineId: member.id });
  if (!roaming.stopped)
    return (
      <Link to={screen} className="text-body font-semibold text-fjord-700 underline">
        {roaming.capOere === null
          ? t('roaming.capChargedNoCap', { charged: kr(roaming.chargedOere) })
          : t('roaming.capCharged', { charged: kr(roaming.chargedOere), cap })}
      </Link>
    );
  return (
    <div role="status" className="flex flex-col gap-3 rounded-2xl bg-puffin-50 px-4 py-3">
      <p className="text-body font-semibold text-puffin-600">{t('roaming.capStopped', { cap })}</p>
      {isOwner ? (
        <Link to={`${screen}?${QUERY.raise}=1`} className={buttonClasses({ block: true })}>
          {t('roaming.capRaise')}
        </Link>
      ) : (
        <p className="text-body text-puffin-600">{t('roaming.capAsk')}</p>
      )}
    </div>
  );
}
