import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { numberClassOf } from '@alda/contract/rules/number-picker';
import { normalizePhoneNumber, phoneNumberInput } from '@alda/contract/rules/phone';
import type { NumberStatus } from '@alda/contract/schemas/auth-register';
import { simcardNumber } from '@alda/contract/rules/iccid';
import type { ApiError } from '@/shared/api/http';
import { useFieldMessage } from '@/shared/forms/field-message';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { ClockIcon } from '@/shared/ui/account-icons';
import { TextField } from '@/shared/ui/text-field';
import { ChoiceCard, ChoiceGroup, StepHeading } from './choice';
import { FreeNumbers, MatchModes } from './number-picker';
import { searchNumber, type NumberPattern } from './signup-api';
import type { SignupDraft } from './signup-draft';
import { formatCountdown, useSecondsUntil } from './use-countdown';

type Update = (
  patch: Partial<SignupDraft> | ((draft: SignupDraft) => Partial<SignupDraft>),
) => void;

/** The first failing key of a contract field schema, or undefined when the value passes. */
export function fieldKey(schema: typeof simcardNumber | typeof phoneNumberInput, value: string) {
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/**
 * Step 2: a new number (picked or searched, and reserved for 30 minutes: ADR 0024, 0077) or keeping one's own
 * (porting: the number and the SIM card number at the current provider).
 */
export function NumberStep({
  draft,
  update,
  notice,
  onNext,
}: {
  draft: SignupDraft;
  update: Update;
  /** Why the customer was sent back here (RESERVATION_EXPIRED, NUMBER_ALREADY_OURS). */
  notice: ApiError | null;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [tried, setTried] = useState(false);
  const own = draft.numberType === 'OWN';

  const next = () => {
    setTried(true);
    if (own) {
      if (fieldKey(phoneNumberInput, draft.porting.phoneNumber)) return;
      if (fieldKey(simcardNumber, draft.porting.simcardNumber)) return;
    } else if (!draft.reservation || Date.parse(draft.reservation.reservedUntil) <= Date.now()) {
      return;
    }
    onNext();
  };

  return (
    <section aria-labelledby="signup-number" className="flex flex-col gap-4">
      <StepHeading id="signup-number">{t('signup.number.heading')}</StepHeading>
      {notice && <Alert tone="warning">{errorMessage(notice)}</Alert>}
      <ChoiceGroup label={t('signup.number.heading')}>
        <ChoiceCard
          selected={!own}
          onSelect={() => update({ numberType: 'NEW' })}
          title={t('signup.number.new')}
          hint={t('signup.number.newHint')}
        />
        <ChoiceCard
          selected={own}
          onSelect={() => update({ numberType: 'OWN' })}
          title={t('signup.number.own')}
          hint={t('signup.number.ownHint')}
        />
      </ChoiceGroup>
      {own ? (
        <PortingFields draft={draft} update={update} showErrors={tried} />
      ) : (
        <NewNumber draft={draft} update={update} missing={tried} />
      )}
      <Button block onClick={next}>
        {t('signup.next')}
      </Button>
    </section>
  );
}

interface SearchOutcome {
  phoneNumber: string;
  status: Exclude<NumberStatus, 'free'>;
  suggestions: string[];
}

/**
 * A new number (issue 33 §1, ADR 0077): the picker's free numbers to tap, a pattern search
 * (contains / ends with / starts with), and a whole number typed in, which is reserved at once
 * as before (ADR 0024) — unless it is an easy number with a price, which is shown first.
 */
function NewNumber({
  draft,
  update,
  missing,
}: {
  draft: SignupDraft;
  update: Update;
  missing: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const errorMessage = useErrorMessage();
  const [inputError, setInputError] = useState(false);
  const [pending, setPending] = useState<{ number: string; from: 'form' | 'pick' } | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [taken, setTaken] = useState<SearchOutcome | null>(null);
  const [pattern, setPattern] = useState<NumberPattern | null>(null);
  const [round, setRound] = useState(0);
  const reservation = draft.reservation;
  const secondsLeft = useSecondsUntil(reservation?.reservedUntil ?? null);
  const expired = reservation !== null && secondsLeft === 0;
  const match = draft.searchMatch ?? 'contains';

  /** Reserves the number (POST /auth/reserved-numbers); taken meanwhile: say so, offer others. */
  const reserve = async (phoneNumber: string, from: 'form' | 'pick') => {
    setFailure(null);
    setPending({ number: phoneNumber, from });
    const result = await searchNumber(http, phoneNumber);
    setPending(null);
    setTaken(null);
    if (!result.ok) {
      setFailure(result.error);
      return;
    }
    const answer = result.data;
    if (answer.status === 'free' && answer.reservationId && answer.reservedUntil) {
      update({
        search: from === 'form' ? answer.phoneNumber : draft.search,
        reservation: {
          phoneNumber: answer.phoneNumber,
          reservationId: answer.reservationId,
          reservedUntil: answer.reservedUntil,
          oneOffPrice: answer.oneOffPrice?.gross ?? null,
        },
      });
      return;
    }
    setTaken({
      phoneNumber: answer.phoneNumber,
      status: answer.status === 'free' ? 'reserved' : answer.status,
      suggestions: answer.suggestions,
    });
    // The set on screen may hold it: a fresh one.
    setRound((r) => r + 1);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const digits = normalizePhoneNumber(draft.search);
    if (!/^\d{1,6}$/.test(digits)) {
      setInputError(true);
      return;
    }
    setInputError(false);
    setTaken(null);
    setFailure(null);
    // A whole ordinary number: reserved at once. Easy ones show their price first.
    if (digits.length === 6 && numberClassOf(digits) === null) {
      void reserve(digits, 'form');
      return;
    }
    setPattern({ match, digits });
    setRound(0);
  };

  if (reservation && !expired) {
    return (
      <div
        role="status"
        className="flex flex-col gap-2 rounded-card bg-white p-5 shadow-card"
        aria-label={t('signup.number.reservedLabel')}
      >
        <span className="text-caption font-semibold text-mist-500">
          {t('signup.number.reservedLabel')}
        </span>
        <span className="text-display font-bold text-ocean-950 tabular-nums">
          {formatPhoneNumber(reservation.phoneNumber)}
        </span>
        <span className="flex items-center gap-2 text-body text-mist-700">
          <ClockIcon className="size-5 shrink-0 text-fjord-600" />
          <span>{t('signup.number.reservedFor', { time: formatCountdown(secondsLeft ?? 0) })}</span>
        </span>
        {reservation.oneOffPrice ? (
          <span className="text-body font-medium text-ocean-900">
            {t('signup.number.reservedOneOff', { price: f.kr(reservation.oneOffPrice) })}
          </span>
        ) : null}
        <Button
          variant="ghost"
          size="md"
          className="self-start"
          onClick={() => update({ reservation: null })}
        >
          {t('signup.number.chooseAnother')}
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {expired && reservation && (
        <Alert tone="warning" title={t('signup.number.expiredTitle')}>
          {t('signup.number.expired', {
            number: formatPhoneNumber(reservation.phoneNumber),
          })}
        </Alert>
      )}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <MatchModes value={match} onChange={(mode) => update({ searchMatch: mode })} />
        <div className="flex items-end gap-2">
          <TextField
            className="flex-1"
            label={t('signup.number.search')}
            hint={t('signup.number.patternHint')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            value={draft.search}
            onChange={(event) => {
              update({ search: event.target.value });
              setInputError(false);
            }}
            onBlur={(event) => update({ search: normalizePhoneNumber(event.target.value) })}
            error={inputError ? t('signup.number.patternInvalid') : undefined}
          />
          <Button
            type="submit"
            variant="secondary"
            className="mb-[1.625rem] shrink-0"
            loading={pending?.from === 'form'}
            disabled={pending !== null}
          >
            {t('signup.number.searchButton')}
          </Button>
        </div>
      </form>
      {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
      {taken && (
        <div className="flex flex-col gap-3">
          <Alert tone="warning">
            {t('signup.number.taken', { number: formatPhoneNumber(taken.phoneNumber) })}
          </Alert>
          {taken.suggestions.length > 0 && (
            <div className="flex flex-col gap-2">
              <p id="signup-suggestions" className="text-body font-semibold text-ocean-950">
                {t('signup.number.suggestions')}
              </p>
              <div
                aria-labelledby="signup-suggestions"
                role="group"
                className="flex flex-wrap gap-2"
              >
                {taken.suggestions.map((suggestion) => (
                  <Button
                    key={suggestion}
                    variant="secondary"
                    size="md"
                    className="rounded-full tabular-nums"
                    loading={pending?.number === suggestion}
                    disabled={pending !== null}
                    onClick={() => void reserve(suggestion, 'pick')}
                  >
                    {formatPhoneNumber(suggestion)}
                  </Button>
                ))}
              </div>
            </div>
          )}
        </div>
      )}
      {missing && !taken && !failure && (
        <p role="alert" className="text-caption font-medium text-danger-600">
          {t('signup.number.chooseFirst')}
        </p>
      )}
      <FreeNumbers
        pattern={pattern}
        round={round}
        pending={pending?.from === 'pick' ? pending.number : null}
        onChoose={(n) => void reserve(n.phoneNumber, 'pick')}
        onMore={() => setRound((r) => r + 1)}
        onClear={() => {
          setPattern(null);
          setRound((r) => r + 1);
        }}
      />
    </div>
  );
}

function PortingFields({
  draft,
  update,
  showErrors,
}: {
  draft: SignupDraft;
  update: Update;
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const fieldMessage = useFieldMessage();
  const [touched, setTouched] = useState({ phoneNumber: false, simcardNumber: false });
  const phoneError =
    showErrors || touched.phoneNumber
      ? fieldKey(phoneNumberInput, draft.porting.phoneNumber)
      : undefined;
  const iccidError =
    showErrors || touched.simcardNumber
      ? fieldKey(simcardNumber, draft.porting.simcardNumber)
      : undefined;
  const setPorting = (patch: Partial<SignupDraft['porting']>) =>
    update((d) => ({ porting: { ...d.porting, ...patch } }));

  return (
    <div className="flex flex-col gap-4">
      <TextField
        label={t('signup.number.portingNumber')}
        hint={t('signup.number.searchHint')}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        value={draft.porting.phoneNumber}
        onChange={(event) => setPorting({ phoneNumber: event.target.value })}
        onBlur={(event) => {
          setPorting({ phoneNumber: normalizePhoneNumber(event.target.value) });
          setTouched((s) => ({ ...s, phoneNumber: true }));
        }}
        error={fieldMessage(phoneError)}
      />
      <IccidField
        label={t('signup.number.portingIccid')}
        value={draft.porting.simcardNumber}
        onChange={(value) => setPorting({ simcardNumber: value })}
        onBlur={() => setTouched((s) => ({ ...s, simcardNumber: true }))}
        error={fieldMessage(iccidError)}
      />
      <Alert tone="info">{t('signup.number.portingNote')}</Alert>
    </div>
  );
}

/** An ICCID input (SPEC §5 INVALID_SIMCARD_NUMBER) with a short help on where to find it. */
export function IccidField({
  label,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2">
      <TextField
        label={label}
        hint={t('signup.iccid.hint')}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        error={error}
      />
      <details className="rounded-2xl bg-white px-4 py-3 text-body shadow-card">
        <summary className="cursor-pointer font-semibold text-ocean-900">
          {t('signup.iccid.helpTitle')}
        </summary>
        <p className="mt-2 text-mist-700">{t('signup.iccid.help')}</p>
      </details>
    </div>
  );
}
