import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Order } from '@alda/contract/schemas/orders';
import type { Account, Member } from '@alda/contract/schemas/subscriptions';
import { domesticUsage } from '@/shared/account/data-usage';
import { ProcessingStatus } from '@/shared/account/processing-badge';
import { currentProvisioningStep } from '@/shared/account/provisioning';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { useFormatters } from '@/shared/format/use-formatters';
import { FamilyIcon } from '@/shared/ui/account-icons';
import { Avatar } from '@/shared/ui/avatar';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { UsageBar } from '@/shared/ui/usage-bar';
import { href, ROUTES } from '@/shared/config/paths';

/**
 * The owner's family on home (SPEC §1, §3): each member with their data left, members being
 * added marked "in progress (can take days)", and the way into managing the family plan.
 */
export function FamilySection({
  account,
  members,
  processing,
}: {
  /** The family plan, when the customer has one (capacity and the manage link). */
  account: Account | null;
  members: Member[];
  processing: Order[];
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const family = account?.family;
  const memberCount = account?.members.length;
  return (
    <section aria-labelledby="family-title" className="flex flex-col gap-3">
      <div className="flex items-end justify-between gap-3 px-1">
        <div className="flex flex-col">
          <h2 id="family-title" className="text-heading font-bold text-ocean-950">
            {t('home.family.title')}
          </h2>
          {family?.maxMembers && memberCount !== undefined && (
            <p className="text-caption text-mist-500">
              {t('home.family.capacity', { count: memberCount, max: family.maxMembers })}
              {family.canAddMember &&
                family.nextMemberPrice !== null &&
                ` · ${t('home.family.nextPrice', {
                  price: f.kr(family.nextMemberPrice, { sign: 'always', decimals: 'auto' }),
                })}`}
            </p>
          )}
        </div>
        {account && (
          <Link
            to={ROUTES.manageFamily}
            className="rounded-full px-3 py-2 text-caption font-semibold text-fjord-700 hover:bg-fjord-50"
          >
            {t('home.family.manage')}
          </Link>
        )}
      </div>

      <ul className="divide-y divide-mist-100 overflow-hidden rounded-card bg-white shadow-card">
        {members.map((member) => (
          <li key={member.id}>
            <MemberRow member={member} />
          </li>
        ))}
        {processing.map((order) => (
          <li key={order.id}>
            <ProcessingRow order={order} />
          </li>
        ))}
        {members.length === 0 && processing.length === 0 && (
          <li className="flex items-center gap-3 px-4 py-4 text-body text-mist-600">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-mist-100 text-mist-500">
              <FamilyIcon />
            </span>
            {t('home.family.empty')}
          </li>
        )}
      </ul>
    </section>
  );
}

const rowClasses =
  'flex items-center gap-3 px-4 py-3.5 transition-colors hover:bg-mist-50 active:bg-mist-100';

function MemberRow({ member }: { member: Member }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const usage = domesticUsage(member);
  const name = `${member.user.firstname} ${member.user.lastname}`;
  const left = usage.unlimited
    ? t('units.unlimited')
    : t('data.leftOf', { left: f.data(usage.remaining), total: f.data(usage.total) });
  return (
    <Link to={href(ROUTES.familyMember, { id: member.id })} className={rowClasses}>
      <Avatar firstname={member.user.firstname} lastname={member.user.lastname} />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-wrap items-baseline justify-between gap-x-2">
          <span className="min-w-0 text-body font-semibold text-mist-900">{name}</span>
          <span className="shrink-0 text-caption text-mist-500 tabular-nums">
            {formatPhoneNumber(member.phoneNumber)}
          </span>
        </div>
        {member.status === 'processing' ? (
          <ProcessingStatus />
        ) : (
          <>
            <UsageBar
              fraction={usage.fraction}
              tone={usage.low ? 'puffin' : 'fjord'}
              label={t('home.family.dataOf', { name })}
              valueText={left}
            />
            <span className="text-caption text-mist-600 tabular-nums">{left}</span>
          </>
        )}
      </div>
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  );
}

function ProcessingRow({ order }: { order: Order }) {
  const { t } = useTranslation();
  const step = currentProvisioningStep(order);
  const label =
    order.memberName ??
    (order.phoneNumber ? formatPhoneNumber(order.phoneNumber) : t('home.family.newMember'));
  const content = (
    <>
      <span className="flex size-11 shrink-0 items-center justify-center rounded-full border-2 border-dashed border-mist-300 text-mist-400">
        <FamilyIcon className="size-5" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col items-start gap-1.5">
        <div className="flex w-full flex-wrap items-baseline justify-between gap-x-2">
          <span className="min-w-0 text-body font-semibold text-mist-900">{label}</span>
          {order.memberName && order.phoneNumber && (
            <span className="shrink-0 text-caption text-mist-500 tabular-nums">
              {formatPhoneNumber(order.phoneNumber)}
            </span>
          )}
        </div>
        <ProcessingStatus />
        {step && (
          <span className="text-caption text-warning-600">
            {t('provisioning.nowAt', { step: t(`provisioning.step.${step}`) })}
          </span>
        )}
      </div>
    </>
  );
  // Without a number yet there is nothing to open (the detail route is by number).
  return order.phoneNumber ? (
    <Link
      to={href(ROUTES.familyMemberProcessing, { phoneNumber: order.phoneNumber })}
      className={rowClasses}
    >
      {content}
      <ChevronRightIcon className="size-5 shrink-0 text-mist-400" />
    </Link>
  ) : (
    <div className={rowClasses}>{content}</div>
  );
}
