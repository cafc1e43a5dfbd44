import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { COMMITMENT_MONTHS } from '@alda/contract/constants';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { maskIccid } from '@alda/contract/rules/iccid';
import { firstChargeDate } from '@alda/contract/rules/first-charge';
import { memberPriceAt } from '@alda/contract/rules/family';
import type { OrderPlacedResponse } from '@alda/contract/schemas/orders';
import type { Plan } from '@alda/contract/schemas/plans';
import type { SimPickupLocation } from '@alda/contract/schemas/provisioning';
import { signupPayload } from '@alda/contract/schemas/signup';
import { DetailList, DetailRow } from '@/shared/account/detail-list';
import { Price } from '@/shared/account/price';
import { accountKeys } from '@/shared/api/account-data';
import type { ApiError } from '@/shared/api/http';
import { ROUTES } from '@/shared/config/paths';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { cardLabel, useCardOnFile } from '@/shared/payments/payment-method';
import { usePaymentMethods, walletOfAgreement } from '@/shared/payments/payment-methods';
import { usePurchase } from '@/shared/payments/use-purchase';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import type { TFunction } from 'i18next';
import { StepHeading } from './choice';
import { usePlaceSignup } from './signup-api';
import { buildSignupPayload, reservationValid, type SignupDraft } from './signup-draft';
import { useSecondsUntil } from './use-countdown';

type Update = (patch: Partial<SignupDraft>) => void;
type Step = 'hald' | 'nummar' | 'sim';

/** Codes that are about the number: the customer chooses it again on the number step. */
const NUMBER_CODES = new Set(['RESERVATION_EXPIRED', 'NUMBER_ALREADY_OURS']);

/**
 * Step 4: the summary, the first charge, the 6-month commitment, the terms and, on a family plan,
 * the same-address confirmation (SPEC §5); then — the card on file first (ADR 0055) — the order.
 */
export function ConfirmStep({
  plan,
  draft,
  update,
  shop,
  confirmPath,
  allowLeaving,
  onPlaced,
  onNumberProblem,
  onEdit,
}: {
  plan: Plan;
  draft: SignupDraft;
  update: Update;
  /** The chosen pick-up shop, when known. */
  shop: SimPickupLocation | null;
  /** This step's own address, where the card registration comes back to. */
  confirmPath: string;
  allowLeaving: (allowed: boolean) => void;
  onPlaced: (placed: OrderPlacedResponse) => void;
  onNumberProblem: (error: ApiError) => void;
  onEdit: (step: Step) => void;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const fieldMessage = useFieldMessage();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const card = useCardOnFile();
  const [cardRefused, setCardRefused] = useState(false);
  const registration = usePurchase();
  // A card check on the card page, or an agreement approved in MobilePay (the provider's way).
  const provider = usePaymentMethods();
  const agreementWords =
    provider.known?.agreementVia === 'mobilepay'
      ? 'signup.agreement.mobilepay'
      : 'signup.agreement';
  const { place, pending } = usePlaceSignup();
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const secondsLeft = useSecondsUntil(
    draft.numberType === 'NEW' ? (draft.reservation?.reservedUntil ?? null) : null,
  );
  const reservationGone = draft.numberType === 'NEW' && secondsLeft === 0;
  const needsCard = card === null || cardRefused;
  const family = plan.type === 'family_plan';

  const price = memberPriceAt(plan.memberPrices, 0);
  const eu = plan.euPackage && draft.euPackage ? plan.euPackage : null;
  const monthly = price + (eu?.price ?? 0);
  // An easy number's one-off price, charged with the first payment (ADR 0077).
  const oneOff = draft.numberType === 'NEW' ? (draft.reservation?.oneOffPrice ?? null) : null;

  const missing = {
    binding: !draft.hasAcceptedBindingPeriod,
    terms: !draft.hasAcceptedTerms,
    sameAddress: family && !draft.sameAddressConfirmed,
  };
  const mustAccept = (key: keyof typeof missing) =>
    tried && missing[key] ? fieldMessage('MUST_ACCEPT') : undefined;

  const submit = async () => {
    setTried(true);
    setFailure(null);
    if (missing.binding || missing.terms || missing.sameAddress) return;
    if (draft.numberType === 'NEW' && !reservationValid(draft.reservation)) return;
    if (needsCard) {
      // ADR 0055 "The card on file comes first": the card page returns to the payment status
      // screen, which brings the customer back here with the draft as it was.
      allowLeaving(true);
      const { agreementVia } = await provider.settle();
      const error = await registration.purchase(
        '/agreements',
        {},
        {
          itemName:
            agreementVia === 'mobilepay'
              ? t('signup.agreement.mobilepay.itemName')
              : t('signup.agreement.itemName'),
          returnTo: confirmPath,
          continueTo: confirmPath,
          paidWith: agreementVia,
        },
      );
      if (error) allowLeaving(false);
      return;
    }
    const parsed = signupPayload.safeParse(buildSignupPayload(draft, plan));
    if (!parsed.success) {
      setFailure({ code: 'VALIDATION_FAILED', message: '', status: 400 });
      return;
    }
    const result = await place(parsed.data);
    if (!result.ok) {
      const { error } = result;
      if (NUMBER_CODES.has(error.code)) return onNumberProblem(error);
      if (error.code === 'AGREEMENT_REQUIRED') {
        setCardRefused(true);
        void queryClient.invalidateQueries({ queryKey: accountKeys.resource('agreement') });
      }
      setFailure(error);
      return;
    }
    allowLeaving(true);
    onPlaced(result.data);
  };

  const { numberText, simText } = lineSummary(t, draft, shop);

  return (
    <section aria-labelledby="signup-confirm" className="flex flex-col gap-5">
      <StepHeading id="signup-confirm">{t('signup.confirm.heading')}</StepHeading>

      <DetailList title={t('signup.confirm.summary')}>
        <DetailRow label={t('signup.confirm.plan')}>
          <EditLink onClick={() => onEdit('hald')} label={t('signup.confirm.editPlan')}>
            {t('signup.confirm.planValue', { type: t(`planTypes.${plan.type}`), name: plan.name })}
          </EditLink>
        </DetailRow>
        {plan.euPackage && (
          <DetailRow label={t('signup.plan.euPackage')}>
            {eu ? t('signup.confirm.euYes', { price: f.kr(eu.price) }) : t('signup.confirm.euNo')}
          </DetailRow>
        )}
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
        <DetailRow label={t('signup.confirm.commitment')}>
          {t('plan.months', { count: COMMITMENT_MONTHS })}
        </DetailRow>
      </DetailList>

      <div className="flex flex-col gap-3 rounded-card bg-white p-5 shadow-card">
        <span className="text-caption font-semibold text-mist-500">
          {t('signup.confirm.monthly')}
        </span>
        <Price price={monthly} perMonth size="lg" />
        {eu && (
          <span className="text-caption text-mist-600">
            {t('signup.confirm.monthlyParts', { plan: f.kr(price), eu: f.kr(eu.price) })}
          </span>
        )}
        <p className="text-body text-mist-700">
          {t('signup.confirm.firstCharge', { date: f.date(firstChargeDate(new Date())) })}
        </p>
        {oneOff !== null && (
          <p className="text-body text-mist-700">
            {t('signup.confirm.firstChargeOneOff', { price: f.kr(oneOff) })}
          </p>
        )}
      </div>

      {reservationGone && (
        <Alert tone="warning" title={t('signup.number.expiredTitle')}>
          <p>{errorMessage({ code: 'RESERVATION_EXPIRED', message: '' })}</p>
          <Button
            variant="secondary"
            size="md"
            className="mt-2 self-start"
            onClick={() => onEdit('nummar')}
          >
            {t('signup.number.chooseAnother')}
          </Button>
        </Alert>
      )}

      <fieldset className="flex flex-col gap-4">
        <legend className="sr-only">{t('signup.confirm.acceptLegend')}</legend>
        <Checkbox
          label={t('signup.confirm.binding', { count: COMMITMENT_MONTHS })}
          checked={draft.hasAcceptedBindingPeriod}
          onChange={(e) => update({ hasAcceptedBindingPeriod: e.target.checked })}
          error={mustAccept('binding')}
        />
        <Checkbox
          label={t('signup.confirm.terms')}
          description={
            <Link to={ROUTES.terms} className="font-semibold text-ocean-700 underline">
              {t('signup.confirm.readTerms')}
            </Link>
          }
          checked={draft.hasAcceptedTerms}
          onChange={(e) => update({ hasAcceptedTerms: e.target.checked })}
          error={mustAccept('terms')}
        />
        {family && (
          <Checkbox
            label={t('signup.confirm.sameAddress')}
            checked={draft.sameAddressConfirmed}
            onChange={(e) => update({ sameAddressConfirmed: e.target.checked })}
            error={mustAccept('sameAddress')}
          />
        )}
      </fieldset>

      {needsCard ? (
        <Alert tone="info" title={t(`${agreementWords}.title`)}>
          {t(`${agreementWords}.body`)}
        </Alert>
      ) : (
        <p className="px-1 text-caption text-mist-600">
          {walletOfAgreement(card) === 'mobilepay'
            ? t('signup.agreement.mobilepay.onFile')
            : t('signup.agreement.onFile', {
                card: cardLabel(card, t('payment.method.cardFallback')),
              })}
        </p>
      )}

      {registration.error && (
        <Alert tone="error" title={t(`${agreementWords}.failed`)}>
          {errorMessage(registration.error)}
        </Alert>
      )}
      {failure && (
        <Alert tone="error" title={t('signup.confirm.failed')}>
          <p>{errorMessage(failure)}</p>
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
          {failure.code === 'PLAN_NOT_AVAILABLE' && (
            <Button
              variant="secondary"
              size="md"
              className="mt-2 self-start"
              onClick={() => onEdit('hald')}
            >
              {t('signup.confirm.editPlan')}
            </Button>
          )}
        </Alert>
      )}

      <Button block loading={pending || registration.pending} onClick={() => void submit()}>
        {needsCard
          ? t(`${agreementWords}.register`)
          : pending
            ? t('signup.confirm.placing')
            : t('signup.confirm.submit')}
      </Button>
    </section>
  );
}

/** A summary value with a link back to the step that chose it. */
export function EditLink({
  onClick,
  label,
  children,
}: {
  onClick: () => void;
  label: string;
  children: ReactNode;
}) {
  return (
    <span className="flex flex-col items-end gap-0.5">
      <span>{children}</span>
      <button
        type="button"
        onClick={onClick}
        className="text-caption font-semibold text-ocean-700 underline"
      >
        {label}
      </button>
    </span>
  );
}

/**
 * How the summary names a new line's number and SIM (the sign-up and a family member added the
 * same way): the number chosen or kept, and the eSIM, shop, address or card held.
 */
export function lineSummary(
  t: TFunction,
  line: SignupDraft,
  shop: SimPickupLocation | null | undefined,
): { numberText: string; simText: string } {
  const numberText =
    line.numberType === 'OWN'
      ? t('signup.confirm.porting', { number: formatPhoneNumber(line.porting.phoneNumber) })
      : formatPhoneNumber(line.reservation?.phoneNumber ?? '');
  const simText = (() => {
    if (line.simType === 'ESIM') return t('sim.ESIM');
    switch (line.simSource) {
      case 'LOCATION':
        return t('signup.confirm.simPickup', { shop: shop?.name ?? '' });
      case 'HOME':
        return t('signup.confirm.simHome', {
          address: `${line.shipping?.address ?? ''}, ${line.shipping?.postCode ?? ''} ${line.shipping?.city ?? ''}`,
        });
      case 'OWN_CARD':
        return t('signup.confirm.simOwnCard', { iccid: maskIccid(line.simcardNumber) });
      default:
        return '';
    }
  })();
  return { numberText, simText };
}
