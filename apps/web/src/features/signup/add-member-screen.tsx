import { useCallback, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { nextMemberPrice } from '@alda/contract/rules/family';
import { requiredText } from '@alda/contract/rules/required';
import { IDEMPOTENCY_KEY_HEADER } from '@alda/contract/schemas/common';
import {
  addMembersResponse,
  newFamilyMember,
  type AddMembersResponse,
  type NewFamilyMember,
} from '@alda/contract/schemas/family-members';
import type { Account } from '@alda/contract/schemas/subscriptions';
import { familyAccountOf } from '@/shared/account/family';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { EmptyState, QueryPending } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { usePlanQuery, useSubscriptionsQuery } from '@/shared/api/account-queries';
import type { ApiError, HttpClient, Result } from '@/shared/api/http';
import { href, QUERY, ROUTES } from '@/shared/config/paths';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useUnsavedChangesGuard } from '@/shared/forms/use-unsaved-changes-guard';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useKnownError } from '@/shared/i18n/use-known-error';
import { useAppServices } from '@/shared/services/app-services';
import { FamilyIcon } from '@/shared/ui/account-icons';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { TextField } from '@/shared/ui/text-field';
import { StepHeading } from './choice';
import { EditLink, lineSummary } from './confirm-step';
import { NumberStep } from './number-step';
import { usePickupLocationsQuery } from './signup-api';
import { emptyDraft, lineSetupOf, reservationValid, type SignupDraft } from './signup-draft';
import { numberDone, simDone, StepProgress } from './signup-screen';
import { SimStep } from './sim-step';

/** The steps, in the URL (`?stig=`) as in the sign-up, so browser back goes one step back. */
export const MEMBER_STEPS = ['navn', 'nummar', 'sim', 'stadfest'] as const;
type MemberStep = (typeof MEMBER_STEPS)[number];

/** Codes about the number: the owner chooses it again on the number step. */
const NUMBER_CODES = new Set(['RESERVATION_EXPIRED', 'NUMBER_ALREADY_OURS']);

const nameField = requiredText(100);

interface MemberDraft {
  firstname: string;
  lastname: string;
  /** The number and SIM, exactly the sign-up's draft (its step components edit it). */
  line: SignupDraft;
  sameAddressConfirmed: boolean;
}

const emptyMember = (): MemberDraft => ({
  firstname: '',
  lastname: '',
  line: emptyDraft('family_plan'),
  sameAddressConfirmed: false,
});

const isDirty = (d: MemberDraft) => JSON.stringify(d) !== JSON.stringify(emptyMember());

const namesDone = (d: MemberDraft) =>
  nameField.safeParse(d.firstname).success && nameField.safeParse(d.lastname).success;

function furthestStep(d: MemberDraft): MemberStep {
  if (!namesDone(d)) return 'navn';
  if (!numberDone(d.line)) return 'nummar';
  if (!simDone(d.line)) return 'sim';
  return 'stadfest';
}

/** The member as the contract's `newFamilyMember`, before it is judged. */
export function buildNewFamilyMember(d: MemberDraft) {
  return { firstname: d.firstname, lastname: d.lastname, ...lineSetupOf(d.line) };
}

/**
 * PATCH /subscriptions?line=<a number of the account> `{addMembers}` with one Idempotency-Key per
 * attempt (a retry after a lost answer sends the same key, so the member is not added twice).
 */
function addMembers(
  http: HttpClient,
  line: string,
  members: NewFamilyMember[],
  idempotencyKey: string,
): Promise<Result<AddMembersResponse>> {
  return http.patch('/subscriptions', { addMembers: members }, addMembersResponse, {
    query: { line },
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
}

/** Why a family plan cannot take a member now (SPEC §4 "Family capacity"). */
export function blockedReason(account: Account): 'prepaid' | 'settingUp' | 'full' | 'busy' {
  if (account.type === 'prepaid' || account.currentMember.prepaidBalance != null) return 'prepaid';
  if (account.planId === null) return 'settingUp';
  const family = account.family;
  if (
    family?.maxMembers != null &&
    family.maxMembers <= account.members.length + family.processingMembers
  )
    return 'full';
  return 'busy';
}

/**
 * `/stovna-familju-lim` (SPEC §2 add-family-member, owner only; ADR 0056 "Family members"): the
 * person's name, then the number (new and reserved, or ported) and the SIM with the sign-up's own
 * steps, a summary with what the family pays more (`+{price} kr.`, SPEC §4) and the same-address
 * confirmation (SPEC §5); then one `add_member` order, followed on the order screen.
 */
export function AddFamilyMemberScreen() {
  const { t } = useTranslation();
  const subscriptions = useSubscriptionsQuery();
  const account = subscriptions.data ? familyAccountOf(subscriptions.data) : null;

  let body;
  if (subscriptions.data === undefined) body = <QueryPending query={subscriptions} />;
  else if (!account || account.type !== 'family_plan')
    body = (
      <EmptyState
        icon={<FamilyIcon />}
        title={t('addMember.noFamilyTitle')}
        body={t('addMember.noFamilyBody')}
        action={
          <ButtonLink to={ROUTES.individualToFamily} size="md" variant="secondary">
            {t('addMember.toFamily')}
          </ButtonLink>
        }
      />
    );
  else if (account.family && !account.family.canAddMember) body = <CannotAdd account={account} />;
  else return <AddMemberFlow account={account} />;

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('addMember.title')} back={ROUTES.manageFamily} />
      <ScreenBody>{body}</ScreenBody>
    </main>
  );
}

function CannotAdd({ account }: { account: Account }) {
  const { t } = useTranslation();
  const reason = blockedReason(account);
  return (
    <EmptyState
      icon={<FamilyIcon />}
      title={t(`addMember.blocked.${reason}Title`)}
      body={t(`addMember.blocked.${reason}`, {
        count: account.family?.maxMembers ?? account.members.length,
      })}
      action={
        <ButtonLink to={ROUTES.manageFamily} size="md" variant="secondary">
          {t('addMember.toManageFamily')}
        </ButtonLink>
      }
    />
  );
}

function AddMemberFlow({ account }: { account: Account }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const [draft, setDraft] = useState<MemberDraft>(emptyMember);
  const [notice, setNotice] = useState<ApiError | null>(null);
  const dirty = isDirty(draft);
  // Moving between the steps (`?stig=`) is free; leaving the screen with something typed asks.
  const allowLeaving = useUnsavedChangesGuard(dirty, {
    leaves: (current, next) => current.pathname !== next.pathname,
    texts: {
      title: t('addMember.leave.title'),
      message: t('addMember.leave.message'),
      leave: t('addMember.leave.leave'),
      stay: t('addMember.leave.stay'),
    },
  });

  const updateLine = useCallback(
    (patch: Partial<SignupDraft> | ((d: SignupDraft) => Partial<SignupDraft>)) =>
      setDraft((d) => ({
        ...d,
        line: { ...d.line, ...(typeof patch === 'function' ? patch(d.line) : patch) },
      })),
    [],
  );

  const requested = MEMBER_STEPS.find((s) => s === params.get(QUERY.step)) ?? MEMBER_STEPS[0];
  const furthest = furthestStep(draft);
  const step =
    MEMBER_STEPS.indexOf(requested) > MEMBER_STEPS.indexOf(furthest) ? furthest : requested;
  const index = MEMBER_STEPS.indexOf(step);
  const stepPath = (to: MemberStep) =>
    to === MEMBER_STEPS[0] ? location.pathname : `${location.pathname}?${QUERY.step}=${to}`;
  const goTo = (to: MemberStep) => {
    if (to !== 'nummar') setNotice(null);
    void navigate(stepPath(to), { state: { memberStep: true } });
  };
  const entered = (location.state as { memberStep?: boolean } | null)?.memberStep === true;
  const back: string | true =
    index === 0 ? ROUTES.manageFamily : entered ? true : stepPath(MEMBER_STEPS[index - 1]!);

  let body;
  if (step !== requested) body = <Navigate to={stepPath(step)} replace />;
  else if (step === 'navn')
    body = <NameStep draft={draft} setDraft={setDraft} onNext={() => goTo('nummar')} />;
  else if (step === 'nummar')
    body = (
      <NumberStep
        draft={draft.line}
        update={updateLine}
        notice={notice}
        onNext={() => goTo('sim')}
      />
    );
  else if (step === 'sim')
    body = <SimStep draft={draft.line} update={updateLine} onNext={() => goTo('stadfest')} />;
  else
    body = (
      <MemberConfirm
        account={account}
        draft={draft}
        setDraft={setDraft}
        allowLeaving={allowLeaving}
        onEdit={goTo}
        onNumberProblem={(error) => {
          setNotice(error);
          if (error.code === 'RESERVATION_EXPIRED') updateLine({ reservation: null });
          void navigate(stepPath('nummar'), { state: { memberStep: true } });
        }}
      />
    );

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={t('addMember.title')} back={back}>
        <StepProgress
          index={index}
          total={MEMBER_STEPS.length}
          label={t(`addMember.steps.${step}`)}
        />
      </ScreenHeader>
      <ScreenBody>{body}</ScreenBody>
    </main>
  );
}

function NameStep({
  draft,
  setDraft,
  onNext,
}: {
  draft: MemberDraft;
  setDraft: (update: (d: MemberDraft) => MemberDraft) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const [tried, setTried] = useState(false);
  const errorOf = (value: string) => {
    if (!tried) return undefined;
    const parsed = nameField.safeParse(value);
    return parsed.success ? undefined : fieldMessage(parsed.error.issues[0]?.message);
  };
  return (
    <form
      noValidate
      aria-labelledby="member-name"
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (namesDone(draft)) onNext();
      }}
    >
      <StepHeading id="member-name">{t('addMember.name.heading')}</StepHeading>
      <p className="text-body text-mist-700">{t('addMember.name.lead')}</p>
      <TextField
        label={t('addMember.name.firstname')}
        autoComplete="off"
        value={draft.firstname}
        onChange={(e) => {
          const firstname = e.target.value;
          setDraft((d) => ({ ...d, firstname }));
        }}
        error={errorOf(draft.firstname)}
      />
      <TextField
        label={t('addMember.name.lastname')}
        autoComplete="off"
        value={draft.lastname}
        onChange={(e) => {
          const lastname = e.target.value;
          setDraft((d) => ({ ...d, lastname }));
        }}
        error={errorOf(draft.lastname)}
      />
      <Button type="submit" block>
        {t('signup.next')}
      </Button>
    </form>
  );
}

function MemberConfirm({
  account,
  draft,
  setDraft,
  allowLeaving,
  onEdit,
  onNumberProblem,
}: {
  account: Account;
  draft: MemberDraft;
  setDraft: (update: (d: MemberDraft) => MemberDraft) => void;
  allowLeaving: (allowed?: boolean) => void;
  onEdit: (step: MemberStep) => void;
  onNumberProblem: (error: ApiError) => void;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const errorMessage = useErrorMessage();
  const knownError = useKnownError();
  const fieldMessage = useFieldMessage();
  const plan = usePlanQuery(account.planId);
  const line = draft.line;
  const pickup = usePickupLocationsQuery(
    line.simType === 'PHYSICAL' && line.simSource === 'LOCATION',
  );
  const shop = pickup.data?.find((s) => s.id === line.pickupLocationId) ?? null;
  const [tried, setTried] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const key = useRef<string | null>(null);

  const price = plan.data
    ? nextMemberPrice(plan.data.memberPrices, account.members.length)
    : (account.family?.nextMemberPrice ?? null);

  const submit = async () => {
    setTried(true);
    setFailure(null);
    if (!draft.sameAddressConfirmed || pending) return;
    if (line.numberType === 'NEW' && !reservationValid(line.reservation)) {
      onNumberProblem({ code: 'RESERVATION_EXPIRED', message: '', status: 409 });
      return;
    }
    const parsed = newFamilyMember.safeParse(buildNewFamilyMember(draft));
    if (!parsed.success) {
      setFailure({ code: 'VALIDATION_FAILED', message: '', status: 400 });
      return;
    }
    key.current ??= crypto.randomUUID();
    setPending(true);
    const result = await addMembers(
      http,
      account.currentMember.phoneNumber,
      [parsed.data],
      key.current,
    );
    setPending(false);
    if (!result.ok) {
      if (result.error.status !== 0) key.current = null;
      if (NUMBER_CODES.has(result.error.code)) return onNumberProblem(result.error);
      setFailure(result.error);
      return;
    }
    key.current = null;
    allowLeaving(true);
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    const order = result.data.orders[0];
    void navigate(order ? href(ROUTES.order, { orderId: order.id }) : ROUTES.manageFamily, {
      replace: true,
    });
  };

  const { numberText, simText } = lineSummary(t, line, shop);
  // An easy number's one-off price, charged with the first payment (ADR 0077).
  const oneOff = line.numberType === 'NEW' ? (line.reservation?.oneOffPrice ?? null) : null;

  return (
    <section aria-labelledby="member-confirm" className="flex flex-col gap-5">
      <StepHeading id="member-confirm">{t('addMember.confirm.heading')}</StepHeading>
      <DetailList title={t('signup.confirm.summary')}>
        <DetailRow label={t('addMember.confirm.name')}>
          <EditLink onClick={() => onEdit('navn')} label={t('addMember.confirm.editName')}>
            {`${draft.firstname.trim()} ${draft.lastname.trim()}`}
          </EditLink>
        </DetailRow>
        <DetailRow label={t('signup.confirm.number')}>
          <EditLink onClick={() => onEdit('nummar')} label={t('signup.confirm.editNumber')}>
            {numberText}
          </EditLink>
        </DetailRow>
        {oneOff !== null && (
          <DetailRow label={t('signup.confirm.oneOff')}>
            {t('signup.confirm.oneOffValue', { price: f.kr(oneOff) })}
          </DetailRow>
        )}
        <DetailRow label={t('signup.confirm.sim')}>
          <EditLink onClick={() => onEdit('sim')} label={t('signup.confirm.editSim')}>
            {simText}
          </EditLink>
        </DetailRow>
      </DetailList>

      {price !== null && (
        <div className="flex flex-col gap-1 rounded-card bg-white p-5 shadow-card">
          <span className="text-caption font-semibold text-mist-500">
            {t('addMember.confirm.priceLabel')}
          </span>
          <span className="text-title font-bold text-ocean-950 tabular-nums">
            {t('addMember.confirm.price', {
              price: f.kr(price, { sign: 'always', decimals: 'auto' }),
            })}
          </span>
          <p className="text-body text-mist-700">{t('addMember.confirm.priceNote')}</p>
        </div>
      )}

      <Checkbox
        label={t('addMember.confirm.sameAddress')}
        checked={draft.sameAddressConfirmed}
        onChange={(e) => {
          const sameAddressConfirmed = e.target.checked;
          setDraft((d) => ({ ...d, sameAddressConfirmed }));
        }}
        error={tried && !draft.sameAddressConfirmed ? fieldMessage('MUST_ACCEPT') : undefined}
      />

      {failure && (
        <Alert tone="error" title={t('addMember.failed')}>
          {knownError(failure) && <p>{errorMessage(failure)}</p>}
          {failure.code === 'PICKUP_LOCATION_NOT_FOUND' && (
            <Button
              variant="secondary"
              size="md"
              className="mt-2 self-start"
              onClick={() => onEdit('sim')}
            >
              {t('signup.confirm.editSim')}
            </Button>
          )}
          {failure.code === 'AGREEMENT_REQUIRED' && (
            <Link to={ROUTES.agreement} className="font-semibold underline">
              {t('addMember.registerCard')}
            </Link>
          )}
        </Alert>
      )}

      <Button block loading={pending} onClick={() => void submit()}>
        {t('addMember.confirm.submit')}
      </Button>
    </section>
  );
}
