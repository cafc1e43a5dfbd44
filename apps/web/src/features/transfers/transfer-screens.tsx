import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { emailSchema } from '@alda/contract/rules/email';
import { nextMemberPrice } from '@alda/contract/rules/family';
import { findPlan } from '@alda/contract/rules/plans';
import type { LineHandover, Member } from '@alda/contract/schemas/subscriptions';
import { accountsOf, familyAccountOf } from '@/shared/account/family';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import {
  usePlansQuery,
  useSubscriptionDetailQuery,
  useSubscriptionsQuery,
} from '@/shared/api/account-queries';
import { lineHandoverKeys } from '@/shared/api/line-handovers';
import { href, ROUTES } from '@/shared/config/paths';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useFormatters } from '@/shared/format/use-formatters';
import { useCardOnFile } from '@/shared/payments/payment-method';
import { useAppServices } from '@/shared/services/app-services';
import { FamilyIcon, SimIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { ButtonLink } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { PlanTransfer, planPrice, useOpenOrder, type TransferChoice } from './plan-transfer';
import { transfersApi, useFamilyAccountExistsQuery } from './transfers-api';

const nameOf = (member: Pick<Member, 'user'>) =>
  `${member.user.firstname} ${member.user.lastname}`.trim();

/** A transfer screen's frame: header (no footer, SPEC §2) and body. */
function TransferFrame({
  title,
  back,
  children,
}: {
  title: string;
  back: string | true;
  children: ReactNode;
}) {
  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={title} back={back} />
      <ScreenBody>{children}</ScreenBody>
    </main>
  );
}

/** Why a move is not offered, and where to go instead. */
function Explain({
  title,
  body,
  to,
  action,
  family = false,
}: {
  title: string;
  body: string;
  to: string;
  action: string;
  family?: boolean;
}) {
  return (
    <EmptyState
      icon={family ? <FamilyIcon /> : <SimIcon />}
      title={title}
      body={body}
      action={
        <ButtonLink to={to} size="md" variant="secondary">
          {action}
        </ButtonLink>
      }
    />
  );
}

/** A plan's name and its monthly price, for the confirms. */
function usePlanWords() {
  const f = useFormatters();
  return (choice: TransferChoice) => ({
    plan: choice.plan?.name ?? '',
    price: choice.plan ? f.kr(planPrice(choice.plan)) : '',
  });
}

/**
 * `/flyt-hald/familju-lim/:id` (SPEC §2 transfer-family-member, owner; ADR 0056): member `:id`
 * leaves the family, either onto an individual plan the owner pays for
 * (`transfer-subscription-to-new-account`) or handed to the member's own Alda user, who accepts
 * it on their own plan (`transfer-subscription-to-user-customer`, a pending hand-over).
 */
export function TransferFamilyMemberScreen() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const detail = useSubscriptionDetailQuery(id);
  const back = href(ROUTES.familyMember, { id });

  let body;
  if (detail.data === undefined) body = <QueryPending query={detail} />;
  else if (detail.data.accountType !== 'family_plan')
    body = (
      <Explain
        family
        title={t('transfers.member.notMemberTitle')}
        body={t('transfers.member.notMember')}
        to={ROUTES.manageFamily}
        action={t('transfers.toManageFamily')}
      />
    );
  else body = <MemberMove member={detail.data.member} />;

  return (
    <TransferFrame title={t('transfers.member.title')} back={back}>
      {body}
    </TransferFrame>
  );
}

type MemberMode = 'own' | 'handover';

function MemberMove({ member }: { member: Member }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const openOrder = useOpenOrder();
  const words = usePlanWords();
  const fieldMessage = useFieldMessage();
  const [mode, setMode] = useState<MemberMode>('own');
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [offered, setOffered] = useState<LineHandover | null>(null);
  const name = nameOf(member);
  const number = formatPhoneNumber(member.phoneNumber);

  if (offered)
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success" title={t('transfers.member.offeredTitle')}>
          <p>{t('transfers.member.waiting', { email: email.trim(), number })}</p>
        </Alert>
        <ButtonLink to={href(ROUTES.handover, { id: offered.id })} variant="secondary" block>
          {t('transfers.member.seeHandover')}
        </ButtonLink>
      </div>
    );

  const checkEmail = () => {
    const parsed = emailSchema.safeParse(email);
    const key = parsed.success ? undefined : parsed.error.issues[0]?.message;
    setEmailError(key);
    return key === undefined;
  };

  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-lead font-bold text-ocean-950">
          {t('transfers.member.how', { name })}
        </legend>
        <ModeOption
          checked={mode === 'own'}
          onSelect={() => setMode('own')}
          title={t('transfers.member.ownTitle')}
          body={t('transfers.member.ownBody')}
        />
        <ModeOption
          checked={mode === 'handover'}
          onSelect={() => setMode('handover')}
          title={t('transfers.member.handoverTitle')}
          body={t('transfers.member.handoverBody', { name })}
        />
      </fieldset>
      {mode === 'own' ? (
        <PlanTransfer
          key="own"
          planType="individual_plan"
          intro={<p>{t('transfers.member.ownIntro', { name, number })}</p>}
          notes={<p className="px-1 text-caption text-mist-600">{t('transfers.member.ownNote')}</p>}
          confirm={(choice) => ({
            title: t('transfers.member.confirmTitle'),
            message: t('transfers.member.confirmOwn', { name, number, ...words(choice) }),
            confirmLabel: t('transfers.move'),
          })}
          submitLabel={t('transfers.member.submitOwn')}
          failedMessage={t('transfers.individualFailed')}
          call={(choice, key) =>
            transfersApi.toOwnAccount(http, member.id, { planId: choice.plan!.planId }, key)
          }
          onDone={openOrder}
        />
      ) : (
        <PlanTransfer
          key="handover"
          planType="individual_plan"
          intro={<p>{t('transfers.member.handoverIntro', { name, number })}</p>}
          validate={checkEmail}
          notes={
            <p className="px-1 text-caption text-mist-600">{t('transfers.member.handoverNote')}</p>
          }
          confirm={(choice) => ({
            title: t('transfers.member.confirmHandoverTitle'),
            message: t('transfers.member.confirmHandover', {
              number,
              email: email.trim(),
              ...words(choice),
            }),
            confirmLabel: t('transfers.member.submitHandover'),
          })}
          submitLabel={t('transfers.member.submitHandover')}
          failedMessage={t('transfers.failed')}
          call={(choice, key) =>
            transfersApi.toUserCustomer(
              http,
              { subscriptionId: member.id, email: email.trim(), planId: choice.plan!.planId },
              key,
            )
          }
          onDone={(handover) => {
            setOffered(handover);
            void queryClient.invalidateQueries({ queryKey: lineHandoverKeys.all });
          }}
        >
          <TextField
            label={t('transfers.member.email')}
            hint={t('transfers.member.emailHint', { name })}
            type="email"
            inputMode="email"
            autoComplete="off"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(undefined);
            }}
            error={fieldMessage(emailError)}
          />
        </PlanTransfer>
      )}
    </>
  );
}

function ModeOption({
  checked,
  onSelect,
  title,
  body,
}: {
  checked: boolean;
  onSelect: () => void;
  title: string;
  body: string;
}) {
  return (
    <label
      className={cx(
        'flex cursor-pointer items-start gap-3 rounded-2xl bg-white px-4 py-3 shadow-card ring-2 transition-colors',
        checked ? 'ring-ocean-700' : 'ring-transparent',
      )}
    >
      <input
        type="radio"
        name="mode"
        checked={checked}
        onChange={onSelect}
        className="mt-1 size-5 shrink-0 accent-ocean-700"
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className="text-body font-semibold text-mist-900">{title}</span>
        <span className="text-caption text-mist-600">{body}</span>
      </span>
    </label>
  );
}

/**
 * `/broyt-til-einstaklingahald` (SPEC §2 transfer-family-to-individual, owner): with one member
 * left, the family becomes an individual plan — that number moves to an individual plan of the
 * owner's and the family account is closed. With more members (or one being added), it explains
 * why not and links to the family (FAMILY_HAS_MEMBERS).
 */
export function FamilyToIndividualScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const openOrder = useOpenOrder();
  const words = usePlanWords();
  const subscriptions = useSubscriptionsQuery();
  const family = subscriptions.data ? familyAccountOf(subscriptions.data) : null;

  let body;
  if (subscriptions.data === undefined) body = <QueryPending query={subscriptions} />;
  else if (!family)
    body = (
      <Explain
        title={t('transfers.familyToIndividual.noFamilyTitle')}
        body={t('transfers.familyToIndividual.noFamily')}
        to={ROUTES.home}
        action={t('transfers.toHome')}
      />
    );
  else if (family.members.length + (family.family?.processingMembers ?? 0) > 1)
    body = (
      <Explain
        family
        title={t('transfers.familyToIndividual.hasMembersTitle')}
        body={t('transfers.familyToIndividual.hasMembers', {
          count: family.members.length + (family.family?.processingMembers ?? 0) - 1,
        })}
        to={ROUTES.manageFamily}
        action={t('transfers.toManageFamily')}
      />
    );
  else {
    const member = family.members[0] ?? family.currentMember;
    const number = formatPhoneNumber(member.phoneNumber);
    body = (
      <PlanTransfer
        planType="individual_plan"
        intro={<p>{t('transfers.familyToIndividual.intro', { number })}</p>}
        confirm={(choice) => ({
          title: t('transfers.familyToIndividual.confirmTitle'),
          message: t('transfers.familyToIndividual.confirm', { number, ...words(choice) }),
          confirmLabel: t('transfers.move'),
        })}
        submitLabel={t('transfers.familyToIndividual.submit')}
        failedMessage={t('transfers.individualFailed')}
        call={(choice, key) =>
          transfersApi.toOwnAccount(http, member.id, { planId: choice.plan!.planId }, key)
        }
        onDone={openOrder}
      />
    );
  }

  return (
    <TransferFrame title={t('transfers.familyToIndividual.title')} back={ROUTES.manageFamily}>
      {body}
    </TransferFrame>
  );
}

/**
 * `/broyt-til-familjuhald` (SPEC §2 transfer-individual-to-family, owner of an individual
 * account): its number goes onto a family plan — a new one of the chosen family plan
 * (`planInfo`), or the owner's family when there is one (family-account-exists decides).
 */
export function IndividualToFamilyScreen() {
  const { t } = useTranslation();
  const subscriptions = useSubscriptionsQuery();
  const data = subscriptions.data;
  const account = data
    ? data.currentAccount?.type === 'individual_plan' && data.isOwner
      ? data.currentAccount
      : (data.individuals[0] ?? null)
    : null;

  let body;
  if (data === undefined) body = <QueryPending query={subscriptions} />;
  else if (!account)
    body = (
      <Explain
        title={t('transfers.individualToFamily.noneTitle')}
        body={t('transfers.individualToFamily.none')}
        to={ROUTES.home}
        action={t('transfers.toHome')}
      />
    );
  else body = <FamilyMove member={account.members[0] ?? account.currentMember} own={false} />;

  return (
    <TransferFrame title={t('transfers.individualToFamily.title')} back={true}>
      {body}
    </TransferFrame>
  );
}

/**
 * `/flyt-til-einstaklingahald` (SPEC §2 transfer-to-own-individual): the user's own number leaves
 * the family they are a member of onto an individual plan they own and pay for from next month;
 * it needs their card on file (AGREEMENT_REQUIRED), so without one it links to the agreement.
 */
export function TransferToIndividualScreen() {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const openOrder = useOpenOrder();
  const words = usePlanWords();
  const card = useCardOnFile();
  const subscriptions = useSubscriptionsQuery();
  const data = subscriptions.data;
  const account = data?.currentAccount ?? null;

  let body;
  if (data === undefined) body = <QueryPending query={subscriptions} />;
  else if (!account || account.type !== 'family_plan')
    body = (
      <Explain
        title={t('transfers.toIndividual.notFamilyTitle')}
        body={t('transfers.toIndividual.notFamily')}
        to={ROUTES.home}
        action={t('transfers.toHome')}
      />
    );
  else if (data.isOwner)
    body = (
      <Explain
        family
        title={t('transfers.toIndividual.ownerTitle')}
        body={t('transfers.toIndividual.owner')}
        to={ROUTES.familyToIndividual}
        action={t('transfers.familyToIndividual.title')}
      />
    );
  else {
    const member = account.currentMember;
    const number = formatPhoneNumber(member.phoneNumber);
    body = (
      <PlanTransfer
        planType="individual_plan"
        intro={
          <>
            <p>{t('transfers.toIndividual.intro', { number })}</p>
            <p>{t('transfers.toIndividual.youPay')}</p>
          </>
        }
        disabled={card === null}
        notes={
          card === null ? (
            <Alert tone="info" title={t('transfers.cardTitle')}>
              <p>{t('transfers.cardNeeded')}</p>
              <Link to={ROUTES.agreement} className="font-semibold underline">
                {t('transfers.registerCard')}
              </Link>
            </Alert>
          ) : undefined
        }
        confirm={(choice) => ({
          title: t('transfers.toIndividual.confirmTitle'),
          message: t('transfers.toIndividual.confirm', { number, ...words(choice) }),
          confirmLabel: t('transfers.move'),
        })}
        submitLabel={t('transfers.toIndividual.submit')}
        failedMessage={t('transfers.individualFailed')}
        call={(choice, key) =>
          transfersApi.toOwnAccount(http, member.id, { planId: choice.plan!.planId }, key)
        }
        onDone={openOrder}
      />
    );
  }

  return (
    <TransferFrame title={t('transfers.toIndividual.title')} back={ROUTES.menu}>
      {body}
    </TransferFrame>
  );
}

/**
 * `/flyt-til-familjuhald` (SPEC §2 transfer-to-own-family): the user's own number (on an
 * individual plan, or a member of someone else's family) goes into the user's own family plan.
 * `family-account-exists` decides: join it (at the next member's price, SPEC §4) or create one
 * with a family plan chosen here.
 */
export function TransferToFamilyScreen() {
  const { t } = useTranslation();
  const subscriptions = useSubscriptionsQuery();
  const data = subscriptions.data;
  const account = data?.currentAccount ?? null;

  let body;
  if (data === undefined) body = <QueryPending query={subscriptions} />;
  else if (!account)
    body = (
      <Explain
        title={t('transfers.toFamily.noNumberTitle')}
        body={t('transfers.toFamily.noNumber')}
        to={ROUTES.home}
        action={t('transfers.toHome')}
      />
    );
  else if (account.type === 'family_plan' && data.isOwner)
    body = (
      <Explain
        family
        title={t('transfers.toFamily.alreadyTitle')}
        body={t('transfers.toFamily.already')}
        to={ROUTES.manageFamily}
        action={t('transfers.toManageFamily')}
      />
    );
  else body = <FamilyMove member={account.currentMember} own />;

  return (
    <TransferFrame title={t('transfers.toFamily.title')} back={ROUTES.menu}>
      {body}
    </TransferFrame>
  );
}

/** A number into the caller's family: joined when it exists, else created with a family plan. */
function FamilyMove({ member, own }: { member: Member; own: boolean }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const openOrder = useOpenOrder();
  const words = usePlanWords();
  const exists = useFamilyAccountExistsQuery();
  const subscriptions = useSubscriptionsQuery();
  const plans = usePlansQuery();
  const number = formatPhoneNumber(member.phoneNumber);

  if (exists.data === undefined) return <QueryPending query={exists} />;

  if (exists.data.exists) {
    const family = subscriptions.data
      ? (accountsOf(subscriptions.data).find((a) => a.id === exists.data.accountId) ?? null)
      : null;
    if (family?.family && !family.family.canAddMember)
      return (
        <Explain
          family
          title={t('transfers.toFamily.fullTitle')}
          body={t('transfers.toFamily.full')}
          to={ROUTES.manageFamily}
          action={t('transfers.toManageFamily')}
        />
      );
    const familyPlan = family?.planId && plans.data ? findPlan(plans.data, family.planId) : null;
    const priceOere =
      family?.family?.nextMemberPrice ??
      (familyPlan && family
        ? nextMemberPrice(familyPlan.memberPrices, family.members.length)
        : null);
    const price = priceOere === null ? null : f.kr(priceOere, { sign: 'always', decimals: 'auto' });
    return (
      <PlanTransfer
        planType={null}
        intro={
          <>
            <p>{t('transfers.toFamily.joinIntro', { number })}</p>
            {price !== null && (
              <p className="rounded-card bg-white p-5 text-title font-bold text-ocean-950 shadow-card tabular-nums">
                {t('transfers.toFamily.joinPrice', { price })}
              </p>
            )}
          </>
        }
        confirm={() => ({
          title: t('transfers.toFamily.confirmTitle'),
          message:
            price === null
              ? t('transfers.toFamily.confirmJoinNoPrice', { number })
              : t('transfers.toFamily.confirmJoin', { number, price }),
          confirmLabel: t('transfers.move'),
        })}
        submitLabel={t('transfers.toFamily.submitJoin')}
        failedMessage={t('transfers.failed')}
        call={(_, key) => transfersApi.toFamilyAccount(http, member.id, {}, key)}
        onDone={openOrder}
      />
    );
  }

  return (
    <PlanTransfer
      planType="family_plan"
      offerEu
      intro={
        <p>
          {own
            ? t('transfers.toFamily.createIntro', { number })
            : t('transfers.individualToFamily.intro', { number })}
        </p>
      }
      confirm={(choice) => ({
        title: t('transfers.toFamily.confirmTitle'),
        message: t('transfers.toFamily.confirmCreate', { number, ...words(choice) }),
        confirmLabel: t('transfers.move'),
      })}
      submitLabel={t('transfers.toFamily.submitCreate')}
      failedMessage={t('transfers.failed')}
      call={(choice, key) =>
        transfersApi.toFamilyAccount(
          http,
          member.id,
          { planInfo: { planId: choice.plan!.planId, euPackage: choice.euPackage } },
          key,
        )
      }
      onDone={openOrder}
    />
  );
}
