import { useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { memberPriceAt } from '@alda/contract/rules/family';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Plan, PlanType } from '@alda/contract/schemas/plans';
import { Price } from '@/shared/account/price';
import { QueryPending } from '@/shared/account/screen-states';
import { accountKeys } from '@/shared/api/account-data';
import { usePlansQuery } from '@/shared/api/account-queries';
import type { ApiError, Result } from '@/shared/api/http';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useKnownError } from '@/shared/i18n/use-known-error';
import { startPayment } from '@/shared/payments/start-payment';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { CheckIcon } from '@/shared/ui/icons';
import { useModal } from '@/shared/ui/modal/modal-context';
import { Switch } from '@/shared/ui/switch';

/** What the customer chose: the plan (null when none is chosen, e.g. joining a family). */
export interface TransferChoice {
  plan: Plan | null;
  euPackage: boolean;
}

export interface PlanTransferProps<T> {
  /** The type of plan offered; null offers none (the family joined keeps its plan). */
  planType: Exclude<PlanType, 'prepaid'> | null;
  /** What moves where, above the plans. */
  intro: ReactNode;
  /** Fields above the plans (the receiver's e-mail of a hand-over). */
  children?: ReactNode;
  /** Notes under the plans (who pays, the card on file). */
  notes?: ReactNode;
  /** Offer the chosen plan's EU package (a new family plan). */
  offerEu?: boolean;
  /** True while something outside the plans stops the move (no card on file). */
  disabled?: boolean;
  /** Checks the fields of `children`; false stops the submit. */
  validate?: () => boolean;
  /** The confirm's title and text: what happens and when. */
  confirm: (choice: TransferChoice) => { title: string; message: string; confirmLabel: string };
  submitLabel: string;
  /** The screen's message for a failure without a text of its own (SPEC §8). */
  failedMessage: string;
  /** The call, with one Idempotency-Key per attempt. */
  call: (choice: TransferChoice, idempotencyKey: string) => Promise<Result<T>>;
  onDone: (data: T) => void;
}

/** The monthly price of a plan's first (or only) number, in øre with VAT. */
export const planPrice = (plan: Plan) => memberPriceAt(plan.memberPrices, 0);

/** The plans on offer of a type. */
export function plansOf(
  planTypes: readonly { type: PlanType; dataPlanResponses: Plan[] }[],
  type: PlanType,
): Plan[] {
  return planTypes.filter((pt) => pt.type === type).flatMap((pt) => pt.dataPlanResponses);
}

/** After a transfer order is placed: the account is read again and its order screen opens. */
export function useOpenOrder() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (placed: OrderPlacedResponse) => {
    void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    if (placed.paymentUrl) {
      startPayment(placed, navigate);
      return;
    }
    void navigate(href(ROUTES.order, { orderId: placed.order.id }), { replace: true });
  };
}

/**
 * The transfer screens' one flow (ADR 0056): choose a plan of the type, confirm (the confirm says
 * what happens and when), call with an Idempotency-Key (a retry after a lost answer sends the same
 * key, so nothing moves twice), then `onDone`. A refusal shows its code's text under the screen's
 * own failure message; AGREEMENT_REQUIRED links to the card on file, FAMILY_HAS_MEMBERS and
 * FAMILY_FULL to the family.
 */
export function PlanTransfer<T>({
  planType,
  intro,
  children,
  notes,
  offerEu = false,
  disabled = false,
  validate,
  confirm,
  submitLabel,
  failedMessage,
  call,
  onDone,
}: PlanTransferProps<T>) {
  const { t } = useTranslation();
  const f = useFormatters();
  const modal = useModal();
  const errorMessage = useErrorMessage();
  const knownError = useKnownError();
  const plans = usePlansQuery();
  const [planId, setPlanId] = useState<string | null>(null);
  const [euPackage, setEuPackage] = useState(false);
  const [missing, setMissing] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const key = useRef<string | null>(null);

  if (planType !== null && plans.data === undefined) return <QueryPending query={plans} />;
  const offered = planType !== null && plans.data ? plansOf(plans.data, planType) : [];
  const plan = offered.find((p) => p.planId === planId) ?? null;

  const submit = async () => {
    setFailure(null);
    const fieldsOk = validate ? validate() : true;
    if (planType !== null && !plan) {
      setMissing(true);
      return;
    }
    if (!fieldsOk || disabled || pending) return;
    const choice: TransferChoice = { plan, euPackage: Boolean(plan?.euPackage) && euPackage };
    const texts = confirm(choice);
    const confirmed = await modal.confirm({
      title: texts.title,
      message: texts.message,
      confirmLabel: texts.confirmLabel,
      tone: 'warning',
    });
    if (!confirmed) return;
    key.current ??= crypto.randomUUID();
    setPending(true);
    const result = await call(choice, key.current);
    setPending(false);
    if (!result.ok) {
      if (result.error.status !== 0) key.current = null;
      setFailure(result.error);
      return;
    }
    key.current = null;
    onDone(result.data);
  };

  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="flex flex-col gap-2 text-body text-mist-700">{intro}</div>
      {children}
      {planType !== null &&
        (offered.length === 0 ? (
          <Alert tone="info">{t('transfers.noPlans')}</Alert>
        ) : (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-lead font-bold text-ocean-950">
              {t('transfers.choosePlan')}
            </legend>
            {offered.map((p) => (
              <PlanOption
                key={p.planId}
                plan={p}
                checked={p.planId === planId}
                onSelect={() => {
                  setPlanId(p.planId);
                  setMissing(false);
                }}
              />
            ))}
            {missing && (
              <p role="alert" className="text-caption font-medium text-danger-600">
                {t('transfers.chooseFirst')}
              </p>
            )}
          </fieldset>
        ))}
      {offerEu && plan?.euPackage && (
        <div className="rounded-card bg-white p-5 shadow-card">
          <Switch
            label={t('transfers.euPackage')}
            description={t('transfers.euPackageHint', {
              price: f.kr(plan.euPackage.price),
              data: f.data(plan.euPackage.dataMb),
            })}
            checked={euPackage}
            onChange={(event) => setEuPackage(event.target.checked)}
          />
        </div>
      )}
      {notes}
      {failure && (
        <Alert tone="error" title={failedMessage}>
          {knownError(failure) && <p>{errorMessage(failure)}</p>}
          {failure.code === 'AGREEMENT_REQUIRED' && (
            <Link to={ROUTES.agreement} className="font-semibold underline">
              {t('transfers.registerCard')}
            </Link>
          )}
          {(failure.code === 'FAMILY_HAS_MEMBERS' || failure.code === 'FAMILY_FULL') && (
            <Link to={ROUTES.manageFamily} className="font-semibold underline">
              {t('transfers.toManageFamily')}
            </Link>
          )}
        </Alert>
      )}
      <Button type="submit" block size="lg" loading={pending} disabled={disabled}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** One plan as a radio card: its name, data and monthly price with and without VAT. */
function PlanOption({
  plan,
  checked,
  onSelect,
}: {
  plan: Plan;
  checked: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  return (
    <label
      className={cx(
        'flex cursor-pointer items-start gap-3 rounded-2xl px-4 py-3 shadow-card ring-2 transition-colors',
        checked ? 'bg-ocean-50 ring-ocean-700' : 'bg-white ring-transparent hover:bg-mist-50',
      )}
    >
      <input
        type="radio"
        name="plan"
        checked={checked}
        onChange={onSelect}
        className="peer sr-only"
      />
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="text-lead font-bold text-ocean-950">{plan.name}</span>
        <span className="text-caption text-mist-600">
          {plan.type === 'family_plan'
            ? t('transfers.familyData', { data: f.data(plan.dataMb), count: plan.maxMembers })
            : t('transfers.data', { data: f.data(plan.dataMb) })}
        </span>
        <Price price={planPrice(plan)} perMonth />
      </span>
      <span
        aria-hidden="true"
        className={cx(
          'mt-1 flex size-5 shrink-0 items-center justify-center rounded-full border-2 peer-focus-visible:ring-2 peer-focus-visible:ring-ocean-500',
          checked ? 'border-ocean-700 bg-ocean-700 text-white' : 'border-mist-300',
        )}
      >
        {checked && <CheckIcon className="size-3.5" strokeWidth={3} />}
      </span>
    </label>
  );
}
