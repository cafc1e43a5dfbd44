import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  SUPPORT_REOPEN_DAYS,
  type SupportConversation,
  type SupportMessage,
} from '@alda/contract/schemas/support';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { supportKeys } from '@/shared/support/support-queries';
import { newConversationHref } from '@/shared/support/write-to-us-link';
import { Alert } from '@/shared/ui/alert';
import { Button, ButtonLink } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { useModal } from '@/shared/ui/modal/modal-context';
import { useToast } from '@/shared/ui/toast/toast-context';
import { AttachmentThumbnail } from './attachment-image';
import { Composer } from './composer';
import { MessageText } from './message-text';
import { conversationChanged, forgetMessage, keepMessage, type OutboxEntry } from './outbox';
import { RatingForm } from './rating-form';
import { supportApi } from './support-api';

/**
 * One conversation's body: the messages as chat bubbles (the customer's right, the desk's left
 * under the answering member's first name), text only with safe links, photos that open larger;
 * the messages waiting on the device; then the composer, or the closed state with reopening, a
 * new conversation and the rating; and closing it.
 */
export function Thread({
  conversation,
  kept,
}: {
  conversation: SupportConversation;
  kept: readonly OutboxEntry[];
}) {
  const { t } = useTranslation();
  const f = useFormatters();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const userId = useSession().user?.id ?? null;
  // The API said writing no longer opens it (409), whatever this device's clock thinks: the
  // text goes with the customer to a new conversation.
  const [tooLate, setTooLate] = useState(false);
  const [draft, setDraft] = useState<string | null>(null);
  // The moment the thread was shown: reopening is judged against it (the API judges again).
  const [now] = useState(Date.now);
  const closed = conversation.state === 'closed';
  const reopenUntil = conversation.reopenUntil;
  const reopenable = closed && !tooLate && reopenUntil !== null && Date.parse(reopenUntil) > now;
  const canWrite = !closed || reopenable;
  const { type, id, reference } = conversation.subject;
  const again =
    type !== 'general' && id !== null
      ? newConversationHref({ type, id, reference })
      : newConversationHref();

  return (
    <>
      <ol aria-label={t('support.thread.messages')} className="flex flex-col gap-4">
        {conversation.messages.map((message) => (
          <li key={message.id}>
            <Bubble message={message} />
          </li>
        ))}
        {kept.map((entry) => (
          <li key={entry.clientId}>
            <KeptBubble entry={entry} userId={userId} />
          </li>
        ))}
      </ol>

      {conversation.state === 'open' && (
        // What happens next while the desk has the turn (the due time is the desk's goal, not a
        // promise: ADR 0088).
        <Alert tone="info">{t('support.thread.openNext')}</Alert>
      )}
      {closed && (
        <Alert tone="info">
          {reopenable && reopenUntil
            ? t('support.thread.closedReopen', { date: f.date(reopenUntil) })
            : t('support.thread.closedForGood')}
        </Alert>
      )}
      {closed && !reopenable && (
        <ButtonLink to={again} state={draft === null ? undefined : { draft }} block>
          {t('support.thread.startNew')}
        </ButtonLink>
      )}
      {closed && <RatingForm conversation={conversation} />}

      {canWrite && (
        <Composer
          label={t('support.composer.reply')}
          send={({ attachmentIds, ...message }) =>
            supportApi.write(http, conversation.id, {
              ...message,
              ...(attachmentIds.length > 0 ? { attachmentIds } : {}),
            })
          }
          keep={(message) => {
            if (userId)
              keepMessage(userId, { ...message, conversationId: conversation.id, subject: null });
          }}
          onSent={(updated) => conversationChanged(queryClient, updated)}
          onFailed={(error, body) => {
            if (error.code === 'SUPPORT_CONVERSATION_CLOSED') {
              setTooLate(true);
              setDraft(body);
              void queryClient.invalidateQueries({ queryKey: supportKeys.thread(conversation.id) });
            }
          }}
        />
      )}
      {!closed && <CloseAction conversationId={conversation.id} />}
    </>
  );
}

/** One message: the customer's on the right, the desk's on the left under the member's name. */
function Bubble({ message }: { message: SupportMessage }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const mine = message.author === 'customer';
  const author = mine ? t('support.thread.you') : (message.authorName ?? t('support.thread.desk'));
  return (
    <article
      aria-label={author}
      className={cx('flex w-5/6 flex-col gap-1', mine ? 'ml-auto items-end' : 'items-start')}
    >
      {!mine && <p className="px-1 text-caption font-semibold text-mist-600">{author}</p>}
      <div
        className={cx(
          'flex max-w-full flex-col gap-2 rounded-2xl px-4 py-3 text-body break-words whitespace-pre-line',
          mine ? 'bg-ocean-900 text-white' : 'bg-white text-mist-900 shadow-card',
        )}
      >
        {message.body && (
          <p>
            <MessageText body={message.body} />
          </p>
        )}
        {message.attachments.length > 0 && (
          <div className="flex flex-wrap gap-2">
            {message.attachments.map((attachment, index) => (
              <AttachmentThumbnail key={attachment.id} attachment={attachment} n={index + 1} />
            ))}
          </div>
        )}
      </div>
      <p className="px-1 text-caption text-mist-500">
        <time dateTime={message.createdAt}>{f.dateTime(message.createdAt)}</time>
      </p>
    </article>
  );
}

/** A message written offline: on the device, marked as waiting until the connection is back. */
function KeptBubble({ entry, userId }: { entry: OutboxEntry; userId: string | null }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  return (
    <article
      aria-label={t('support.thread.you')}
      className="ml-auto flex w-5/6 flex-col items-end gap-1"
    >
      <div className="max-w-full rounded-2xl bg-ocean-900 px-4 py-3 text-body break-words whitespace-pre-line text-white opacity-80">
        <p>
          <MessageText body={entry.body} />
        </p>
      </div>
      {entry.failed ? (
        <div className="flex flex-col items-end gap-1 px-1 text-right text-caption text-danger-600">
          <p>
            {t('support.outbox.failed', {
              reason: errorMessage({ code: entry.failed, message: '' }),
            })}
          </p>
          {userId && (
            <Button variant="ghost" size="md" onClick={() => forgetMessage(userId, entry.clientId)}>
              {t('support.outbox.remove')}
            </Button>
          )}
        </div>
      ) : (
        <p className="px-1 text-right text-caption text-warning-600">
          {t('support.outbox.waiting')}
        </p>
      )}
    </article>
  );
}

/** "Close conversation", after a confirmation; the customer may then rate it. */
function CloseAction({ conversationId }: { conversationId: string }) {
  const { t } = useTranslation();
  const { http } = useAppServices();
  const queryClient = useQueryClient();
  const modal = useModal();
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const [closing, setClosing] = useState(false);

  const close = async () => {
    const sure = await modal.confirm({
      title: t('support.thread.closeTitle'),
      message: t('support.thread.closeMessage', { days: SUPPORT_REOPEN_DAYS }),
      confirmLabel: t('support.thread.closeConfirm'),
    });
    if (!sure) return;
    setClosing(true);
    const result = await supportApi.close(http, conversationId);
    setClosing(false);
    if (result.ok) conversationChanged(queryClient, result.data);
    else toast.show({ type: 'error', message: errorMessage(result.error) });
  };

  return (
    <Button
      variant="ghost"
      size="md"
      className="self-center"
      loading={closing}
      onClick={() => void close()}
    >
      {t('support.thread.close')}
    </Button>
  );
}
