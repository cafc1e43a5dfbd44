import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@alda/contract/format/number';
import {
  SUPPORT_RATING_COMMENT_MAX_LENGTH,
  type SupportConversation,
} from '@alda/contract/schemas/support';
import type { ApiError } from '@/shared/api/http';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useLocale } from '@/shared/i18n/use-locale';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { cx } from '@/shared/ui/cx';
import { conversationChanged } from './outbox';
import { supportApi } from './support-api';
import { StarIcon } from './support-icons';

const SCORES = [1, 2, 3, 4, 5] as const;

/** Five stars, the first `score` of them filled. */
function Stars({ score, className }: { score: number; className: string }) {
  return SCORES.map((n) => (
    <StarIcon
      key={n}
      className={cx(className, n <= score ? 'text-puffin-500' : 'text-mist-400')}
      fill={n <= score ? 'currentColor' : 'none'}
    />
  ));
}

/**
 * After a conversation closed (issue 46): how the answer helped, 1–5 stars as a radio group (the
 * arrow keys move between them) and an optional comment; once sent, the thanks.
 */
export function RatingForm({ conversation }: { conversation: SupportConversation }) {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const errorMessage = useErrorMessage();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const id = useId();
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const tooLong = comment.length > SUPPORT_RATING_COMMENT_MAX_LENGTH;

  if (conversation.rating)
    return (
      <Card role="status" className="flex flex-col items-center gap-2 text-center">
        <p className="text-lead font-bold text-ocean-950">{t('support.rating.thanks')}</p>
        <p className="flex gap-1" aria-hidden="true">
          <Stars score={conversation.rating.score} className="size-6" />
        </p>
        <p className="text-body text-mist-700">
          {t('support.rating.given', { score: conversation.rating.score, max: SCORES.length })}
        </p>
      </Card>
    );
  if (!conversation.canRate) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (score === null || tooLong) return;
    setSending(true);
    setError(null);
    const text = comment.trim();
    const result = await supportApi.rate(http, conversation.id, {
      score,
      comment: text === '' ? null : text,
    });
    setSending(false);
    if (result.ok) conversationChanged(queryClient, result.data);
    else setError(result.error);
  };

  const missing = tried && score === null;
  return (
    <Card>
      <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4">
        <fieldset
          className="flex flex-col gap-2"
          aria-describedby={missing ? `${id}-missing` : undefined}
        >
          <legend className="pb-2 text-lead font-bold text-ocean-950">
            {t('support.rating.title')}
          </legend>
          <div className="flex gap-1">
            {SCORES.map((n) => (
              <label
                key={n}
                className="flex size-11 cursor-pointer items-center justify-center rounded-full has-[:focus-visible]:ring-4 has-[:focus-visible]:ring-fjord-100"
              >
                <input
                  type="radio"
                  name={`${id}-score`}
                  value={n}
                  checked={score === n}
                  onChange={() => {
                    setScore(n);
                    setError(null);
                  }}
                  className="sr-only"
                />
                <StarIcon
                  className={cx(
                    'size-8',
                    score !== null && n <= score ? 'text-puffin-500' : 'text-mist-400',
                  )}
                  fill={score !== null && n <= score ? 'currentColor' : 'none'}
                />
                <span className="sr-only">{t('support.rating.star', { count: n })}</span>
              </label>
            ))}
          </div>
          {missing && (
            <p id={`${id}-missing`} className="text-caption font-medium text-danger-600">
              {t('support.rating.pickScore')}
            </p>
          )}
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-comment`} className="text-caption font-semibold text-mist-700">
            {t('support.rating.comment')}
          </label>
          <textarea
            id={`${id}-comment`}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            rows={3}
            aria-invalid={tooLong || undefined}
            aria-describedby={tooLong ? `${id}-comment-error` : undefined}
            className={cx(
              'block w-full rounded-control border bg-white px-4 py-3 text-body text-mist-900 transition-colors',
              'focus:outline-none focus-visible:outline-none focus:ring-4',
              tooLong
                ? 'border-danger-600 focus:ring-danger-50'
                : 'border-mist-300 focus:border-fjord-500 focus:ring-fjord-100',
            )}
          />
          {tooLong && (
            <p id={`${id}-comment-error`} className="text-caption font-medium text-danger-600">
              {t('support.rating.commentTooLong', {
                max: formatNumber(SUPPORT_RATING_COMMENT_MAX_LENGTH, locale),
              })}
            </p>
          )}
        </div>
        {error && <Alert tone="error">{errorMessage(error)}</Alert>}
        <Button type="submit" size="md" loading={sending}>
          {t('support.rating.send')}
        </Button>
      </form>
    </Card>
  );
}
