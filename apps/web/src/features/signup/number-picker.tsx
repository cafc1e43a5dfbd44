import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { NUMBER_MATCH_MODES, type NumberMatchMode } from '@alda/contract/rules/number-picker';
import type { FreeNumber } from '@alda/contract/schemas/number-picker';
import { ApiRequestError } from '@/shared/api/http';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { freeNumbersOptions, type NumberPattern } from './signup-api';

/*
 * The number picker of the sign-up (issue 33 §1, docs/decisions/0077-number-picker.md): a set of
 * free numbers to tap (a fresh one on "Vís fleiri"), the easy ones with their one-off price shown
 * before choosing, and "none free" with the nearest numbers. Tapping reserves (the caller's
 * `onChoose`); nothing here holds a number.
 */

/** "Contains", "ends with", "starts with": how the typed digits match. */
export function MatchModes({
  value,
  onChange,
}: {
  value: NumberMatchMode;
  onChange: (mode: NumberMatchMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      role="radiogroup"
      aria-label={t('signup.number.matchLegend')}
      className="flex gap-1 rounded-control bg-mist-100 p-1"
    >
      {NUMBER_MATCH_MODES.map((mode) => (
        <button
          key={mode}
          type="button"
          role="radio"
          aria-checked={value === mode}
          onClick={() => onChange(mode)}
          className={cx(
            'min-h-11 flex-1 rounded-control px-1 text-body font-semibold whitespace-nowrap transition-colors',
            value === mode
              ? 'bg-white text-ocean-950 shadow-card'
              : 'text-mist-700 hover:text-ocean-900',
          )}
        >
          {t(`signup.number.match.${mode}`)}
        </button>
      ))}
    </div>
  );
}

/** One number to tap: a chip, or for an easy number a card with its class and one-off price. */
function Choice({
  number,
  pending,
  disabled,
  onChoose,
}: {
  number: FreeNumber;
  pending: boolean;
  disabled: boolean;
  onChoose: (number: FreeNumber) => void;
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const spaced = formatPhoneNumber(number.phoneNumber);
  if (number.oneOffPrice && number.numberClass) {
    const price = f.kr(number.oneOffPrice.gross);
    return (
      <Button
        variant="secondary"
        size="md"
        className="w-full justify-between rounded-2xl py-2 text-left"
        loading={pending}
        disabled={disabled}
        onClick={() => onChoose(number)}
      >
        <span className="flex min-w-0 flex-1 flex-col items-start text-left">
          <span className="text-lead font-bold tabular-nums">{spaced}</span>
          <span className="text-caption font-medium text-mist-600">
            {t(`signup.number.class.${number.numberClass}`)}
          </span>
        </span>
        <span className="shrink-0 text-body font-semibold text-puffin-600">
          {t('signup.number.oneOff', { price })}
        </span>
      </Button>
    );
  }
  return (
    <Button
      variant="secondary"
      size="md"
      className="rounded-full tabular-nums"
      loading={pending}
      disabled={disabled}
      onClick={() => onChoose(number)}
    >
      {spaced}
    </Button>
  );
}

function Choices({
  labelledBy,
  numbers,
  pending,
  onChoose,
}: {
  labelledBy: string;
  numbers: FreeNumber[];
  pending: string | null;
  onChoose: (number: FreeNumber) => void;
}) {
  const plain = numbers.filter((n) => !n.oneOffPrice);
  const priced = numbers.filter((n) => n.oneOffPrice);
  const choice = (n: FreeNumber) => (
    <Choice
      key={n.phoneNumber}
      number={n}
      pending={pending === n.phoneNumber}
      disabled={pending !== null}
      onChoose={onChoose}
    />
  );
  return (
    <div role="group" aria-labelledby={labelledBy} className="flex flex-col gap-2">
      {plain.length > 0 && <div className="grid grid-cols-3 gap-2">{plain.map(choice)}</div>}
      {priced.map(choice)}
    </div>
  );
}

/**
 * The free numbers of `pattern` (none: any) in set `round`, to tap. `pending` is the number
 * being reserved now.
 */
export function FreeNumbers({
  pattern,
  round,
  pending,
  onChoose,
  onMore,
  onClear,
}: {
  pattern: NumberPattern | null;
  round: number;
  pending: string | null;
  onChoose: (number: FreeNumber) => void;
  onMore: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const errorMessage = useErrorMessage();
  const id = useId();
  const query = useQuery(freeNumbersOptions(http, pattern, round));
  const data = query.data;
  const title = pattern
    ? t(`signup.number.resultsFor.${pattern.match}`, { digits: pattern.digits })
    : t('signup.number.results');

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-title`} className="text-lead font-bold text-ocean-950">
          {title}
        </h3>
        <p className="text-caption text-mist-600">{t('signup.number.pickHint')}</p>
      </div>
      {query.isPending && (
        <p role="status" className="text-body text-mist-700">
          {t('signup.number.loading')}
        </p>
      )}
      {query.isError && (
        <Alert tone="error" title={t('signup.number.loadFailed')}>
          <span className="flex flex-col items-start gap-2">
            {query.error instanceof ApiRequestError ? errorMessage(query.error.error) : null}
            <Button variant="ghost" size="md" onClick={() => void query.refetch()}>
              {t('signup.number.retry')}
            </Button>
          </span>
        </Alert>
      )}
      {data && data.numbers.length > 0 && (
        <Choices
          labelledBy={`${id}-title`}
          numbers={data.numbers}
          pending={pending}
          onChoose={onChoose}
        />
      )}
      {data?.nearest && pattern && (
        <div className="flex flex-col gap-2">
          <Alert tone="warning">
            {t(`signup.number.noneFree.${pattern.match}`, { digits: pattern.digits })}
          </Alert>
          {data.nearest.numbers.length > 0 && (
            <>
              <p id={`${id}-nearest`} className="text-body font-semibold text-ocean-950">
                {t('signup.number.nearest')}
              </p>
              <Choices
                labelledBy={`${id}-nearest`}
                numbers={data.nearest.numbers}
                pending={pending}
                onChoose={onChoose}
              />
            </>
          )}
        </div>
      )}
      {data && data.golden.length > 0 && (
        <div className="flex flex-col gap-2 pt-1">
          <p id={`${id}-golden`} className="text-body font-semibold text-ocean-950">
            {t('signup.number.golden')}
          </p>
          <p className="text-caption text-mist-600">{t('signup.number.goldenHint')}</p>
          <Choices
            labelledBy={`${id}-golden`}
            numbers={data.golden}
            pending={pending}
            onChoose={onChoose}
          />
        </div>
      )}
      {data && (
        <div className="flex flex-wrap gap-2">
          <Button variant="ghost" size="md" onClick={onMore} disabled={pending !== null}>
            {t('signup.number.showMore')}
          </Button>
          {pattern && (
            <Button variant="ghost" size="md" onClick={onClear} disabled={pending !== null}>
              {t('signup.number.clearSearch')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
