import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Navigate,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
import { useTranslation } from 'react-i18next';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Plan, PlansResponse } from '@alda/contract/schemas/plans';
import type { SimDelivery } from '@alda/contract/schemas/provisioning';
import { phoneNumberInput } from '@alda/contract/rules/phone';
import { simcardNumber } from '@alda/contract/rules/iccid';
import { DetailSkeleton, QueryError } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { usePlansQuery } from '@/shared/api/account-queries';
import type { ApiError } from '@/shared/api/http';
import { QUERY, ROUTES } from '@/shared/config/paths';
import { startPayment } from '@/shared/payments/start-payment';
import { useUnsavedChangesGuard } from '@/shared/forms/use-unsaved-changes-guard';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { ConfirmStep } from './confirm-step';
import { DoneStep, isPlacedSummary, type PlacedSummary } from './done-step';
import { NumberStep } from './number-step';
import { useNavigationIdle } from '@/shared/router/app-router';
import { PlanStep, TypeStep } from './plan-step';
import { shippingForm, SimStep } from './sim-step';
import { usePickupLocationsQuery } from './signup-api';
import {
  clearDraft,
  emptyDraft,
  hasChoices,
  isSignupPlanType,
  loadDraft,
  saveDraft,
  type SignupDraft,
  type SignupFlow,
  type SignupPlanType,
} from './signup-draft';

/** The steps, as written in the URL (`?stig=`), so browser back goes to the previous one. */
export const STEPS = {
  type: 'slag',
  plan: 'hald',
  number: 'nummar',
  sim: 'sim',
  confirm: 'stadfest',
  done: 'takk',
} as const;
type StepKey = Exclude<(typeof STEPS)[keyof typeof STEPS], 'takk'>;

const NEW_STEPS: readonly StepKey[] = [STEPS.plan, STEPS.number, STEPS.sim, STEPS.confirm];
const ADD_STEPS: readonly StepKey[] = [STEPS.type, ...NEW_STEPS];

/** Router state of a step entered with "next" (back then goes back in history). */
interface StepState {
  signupStep?: boolean;
  placed?: PlacedSummary;
}

/** `/nytt-hald/:planType` (SPEC §2 new-subscription): an unknown plan type goes home. */
export function NewSubscriptionScreen() {
  const { planType } = useParams();
  if (!isSignupPlanType(planType)) return <Navigate to={ROUTES.home} replace />;
  return <SignupFlowScreen key={planType} flow="new" fixedType={planType} />;
}

/** `/legg-hald-afturat` (SPEC §2 add-subscription): individual or family first. */
export function AddSubscriptionScreen() {
  return <SignupFlowScreen flow="add" fixedType={null} />;
}

export function plansOfType(planTypes: PlansResponse, type: SignupPlanType | null): Plan[] {
  return planTypes.filter((pt) => pt.type === type).flatMap((pt) => pt.dataPlanResponses);
}

/** The number step is done: a reservation, or a port with a valid number and SIM card number. */
export function numberDone(draft: SignupDraft): boolean {
  if (draft.numberType === 'NEW') return draft.reservation !== null;
  return (
    phoneNumberInput.safeParse(draft.porting.phoneNumber).success &&
    simcardNumber.safeParse(draft.porting.simcardNumber).success
  );
}

/** The SIM step is done: eSIM, or a physical SIM with its source filled in. */
export function simDone(draft: SignupDraft): boolean {
  if (draft.simType === 'ESIM') return true;
  if (draft.simType !== 'PHYSICAL') return false;
  switch (draft.simSource) {
    case 'LOCATION':
      return draft.pickupLocationId !== null;
    case 'HOME':
      return shippingForm.safeParse(draft.shipping).success;
    case 'OWN_CARD':
      return simcardNumber.safeParse(draft.simcardNumber).success;
    default:
      return false;
  }
}

/** The furthest step the draft allows: a step is shown only once the ones before it are done. */
function furthestStep(draft: SignupDraft, plan: Plan | null, steps: readonly StepKey[]): StepKey {
  if (steps.includes(STEPS.type) && draft.planType === null) return STEPS.type;
  if (!plan) return STEPS.plan;
  if (!numberDone(draft)) return STEPS.number;
  if (!simDone(draft)) return STEPS.sim;
  return STEPS.confirm;
}

function deliveryOf(draft: SignupDraft): SimDelivery {
  if (draft.simType === 'ESIM') return 'esim';
  if (draft.simSource === 'LOCATION') return 'pickup';
  if (draft.simSource === 'HOME') return 'home';
  return 'own_card';
}

const isEmpty = (draft: SignupDraft) => !hasChoices(draft) && draft.planId === null;

function SignupFlowScreen({
  flow,
  fixedType,
}: {
  flow: SignupFlow;
  fixedType: SignupPlanType | null;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  const { session } = useAppServices();
  const userId = user?.id ?? '';
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const plans = usePlansQuery();
  const state = (location.state ?? {}) as StepState;

  const [draft, setDraft] = useState<SignupDraft>(() => {
    const saved = loadDraft(userId, flow);
    return saved && (fixedType === null || saved.planType === fixedType)
      ? saved
      : emptyDraft(fixedType);
  });
  // Every change is kept on the device at once: a reload or a lost connection loses nothing.
  useEffect(() => {
    if (isEmpty(draft)) clearDraft(userId, flow);
    else saveDraft(userId, flow, draft);
  }, [userId, flow, draft]);
  const update = useCallback(
    (patch: Partial<SignupDraft> | ((d: SignupDraft) => Partial<SignupDraft>)) =>
      setDraft((d) => ({ ...d, ...(typeof patch === 'function' ? patch(d) : patch) })),
    [],
  );
  const discard = useCallback(() => clearDraft(userId, flow), [userId, flow]);
  // Moving between steps (`?stig=`) is free, and the terms are read and come back from; leaving
  // the flow with choices made asks first and drops the draft. Logout and an expired session go
  // to login without a question. The draft is kept on the device, so a reload asks nothing.
  const allowLeaving = useUnsavedChangesGuard(hasChoices(draft), {
    leaves: (current, next) =>
      session.getState().user !== null &&
      current.pathname !== next.pathname &&
      next.pathname !== ROUTES.terms,
    onLeave: discard,
    askOnUnload: false,
    texts: {
      title: t('signup.leave.title'),
      message: t('signup.leave.message'),
      leave: t('signup.leave.leave'),
      stay: t('signup.leave.stay'),
    },
  });

  const steps = flow === 'add' ? ADD_STEPS : NEW_STEPS;
  const typePlans = plans.data ? plansOfType(plans.data, draft.planType) : [];
  const plan = typePlans.find((p) => p.planId === draft.planId) ?? null;
  const pickup = usePickupLocationsQuery(
    draft.simType === 'PHYSICAL' && draft.simSource === 'LOCATION',
  );
  const shop = pickup.data?.find((s) => s.id === draft.pickupLocationId) ?? null;

  const requested = params.get(QUERY.step);
  const done = requested === STEPS.done;
  const placed = done && isPlacedSummary(state.placed) ? state.placed : null;
  // The order is placed: the choices are gone (not before the thank-you shows, or the confirm
  // step would see an empty draft and send the customer back to step 1).
  if (placed && !isEmpty(draft)) setDraft(emptyDraft(fixedType));
  const asked = steps.find((s) => s === requested) ?? steps[0]!;
  const furthest = furthestStep(draft, plan, steps);
  const step = steps.indexOf(asked) > steps.indexOf(furthest) ? furthest : asked;

  const stepPath = useCallback(
    (to: StepKey) =>
      to === steps[0] ? location.pathname : `${location.pathname}?${QUERY.step}=${to}`,
    [location.pathname, steps],
  );
  // Why the number step is shown again (RESERVATION_EXPIRED, NUMBER_ALREADY_OURS), until the
  // customer moves on.
  const [notice, setNotice] = useState<ApiError | null>(null);
  const navigating = useRef(false);
  const go = async (to: string, options: { replace?: boolean; state: StepState }) => {
    navigating.current = true;
    try {
      await navigate(to, options);
    } finally {
      navigating.current = false;
    }
  };
  const goTo = (to: StepKey) => {
    if (to !== STEPS.number) setNotice(null);
    return go(stepPath(to), { state: { signupStep: true } });
  };

  // `?hald=<planId>` from the plans screens chooses the plan once, then leaves the address.
  const wanted = params.get(QUERY.plan);
  const [appliedPlan, setAppliedPlan] = useState<string | null>(null);
  if (wanted && plans.data && wanted !== appliedPlan) {
    setAppliedPlan(wanted);
    const found = plansOfType(plans.data, draft.planType).find((p) => p.planId === wanted);
    if (found && draft.planId !== found.planId) setDraft((d) => ({ ...d, planId: found.planId }));
  }
  const stripPlan = Boolean(wanted && plans.data);
  useEffect(() => {
    if (stripPlan) void navigate(stepPath(step), { replace: true, state: location.state });
  }, [stripPlan, navigate, stepPath, step, location.state]);

  // A step whose earlier steps are not done (a reload, a link) shows the first one missing.
  // Not while one of our own step navigations is under way (the router's state arrives in a
  // transition, after the draft's): the step it goes to is the right one.
  const idle = useNavigationIdle();
  const stepUrlWrong = idle && !done && !wanted && plans.data !== undefined && step !== asked;
  useEffect(() => {
    if (stepUrlWrong && !navigating.current) void navigate(stepPath(step), { replace: true });
  }, [stepUrlWrong, navigate, stepPath, step]);

  const index = steps.indexOf(step);
  const previous = index > 0 ? steps[index - 1] : undefined;
  const back: string | true = done
    ? ROUTES.home
    : previous === undefined
      ? flow === 'new'
        ? ROUTES.plans
        : ROUTES.menu
      : state.signupStep
        ? true
        : stepPath(previous);

  const onPlaced = async (placed: OrderPlacedResponse) => {
    const summary: PlacedSummary = {
      orderId: placed.order.id,
      delivery: deliveryOf(draft),
      porting: draft.numberType === 'OWN',
      phoneNumber:
        draft.numberType === 'OWN'
          ? draft.porting.phoneNumber
          : (draft.reservation?.phoneNumber ?? ''),
      shopName: shop?.name ?? null,
      address: draft.shipping
        ? `${draft.shipping.address}, ${draft.shipping.postCode} ${draft.shipping.city}`
        : null,
    };
    clearDraft(userId, flow);
    // Home, orders and the welcome guard see the order being set up at once.
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    if (placed.paymentUrl) {
      startPayment(placed, navigate);
      return;
    }
    await go(`${location.pathname}?${QUERY.step}=${STEPS.done}`, {
      replace: true,
      state: { placed: summary },
    });
  };

  const onNumberProblem = async (error: ApiError) => {
    setNotice(error);
    await goTo(STEPS.number);
    if (error.code === 'RESERVATION_EXPIRED') update({ reservation: null });
  };

  const title = flow === 'add' ? t('signup.addTitle') : t('signup.title');

  let body;
  if (done) {
    body = placed ? <DoneStep summary={placed} /> : <Navigate to={ROUTES.orders} replace />;
  } else if (plans.data === undefined) {
    body = plans.isError ? (
      <QueryError
        error={plans.error}
        onRetry={() => void plans.refetch()}
        retrying={plans.isFetching}
      />
    ) : (
      <DetailSkeleton />
    );
  } else if (step === STEPS.type) {
    body = (
      <TypeStep
        value={draft.planType}
        onChoose={(type) => {
          if (type !== draft.planType)
            update({ planType: type, planId: null, euPackage: false, sameAddressConfirmed: false });
          void goTo(STEPS.plan);
        }}
      />
    );
  } else if (step === STEPS.plan) {
    body = (
      <PlanStep
        plans={typePlans}
        draft={draft}
        update={update}
        onNext={() => void goTo(STEPS.number)}
      />
    );
  } else if (step === STEPS.number) {
    body = (
      <NumberStep
        draft={draft}
        update={update}
        notice={notice}
        onNext={() => void goTo(STEPS.sim)}
      />
    );
  } else if (step === STEPS.sim) {
    body = <SimStep draft={draft} update={update} onNext={() => void goTo(STEPS.confirm)} />;
  } else if (plan) {
    body = (
      <ConfirmStep
        plan={plan}
        draft={draft}
        update={update}
        shop={shop}
        confirmPath={`${location.pathname}?${QUERY.step}=${STEPS.confirm}`}
        allowLeaving={allowLeaving}
        onPlaced={(placed) => void onPlaced(placed)}
        onNumberProblem={(error) => void onNumberProblem(error)}
        onEdit={(to) => void goTo(to)}
      />
    );
  }

  return (
    <main className="min-h-dvh bg-mist-50">
      <ScreenHeader title={title} back={back}>
        {!done && plans.data !== undefined && (
          <StepProgress index={index} total={steps.length} label={t(`signup.steps.${step}`)} />
        )}
      </ScreenHeader>
      <ScreenBody>{body}</ScreenBody>
    </main>
  );
}

export function StepProgress({
  index,
  total,
  label,
}: {
  index: number;
  total: number;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="px-safe flex flex-col gap-1.5 pb-3">
      <p className="text-caption font-semibold text-mist-600">
        {t('signup.progress', { current: index + 1, total, step: label })}
      </p>
      <div
        role="progressbar"
        aria-label={t('signup.progressLabel')}
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={index + 1}
        className="h-1.5 overflow-hidden rounded-full bg-mist-200"
      >
        <div
          className="h-full rounded-full bg-fjord-500 transition-[width]"
          style={{ width: `${((index + 1) / total) * 100}%` }}
        />
      </div>
    </div>
  );
}
