import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SupportConversationSummary, SupportState } from '@alda/contract/schemas/support';
import { href, ROUTES } from '@/shared/config/paths';
import { useFormatters } from '@/shared/format/use-formatters';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useSession } from '@/shared/services/app-services';
import { Badge, type BadgeTone } from '@/shared/ui/badge';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { forgetMessage, type OutboxEntry } from './outbox';
import { subjectLine } from './subject';

const STATE_TONES: Record<SupportState, BadgeTone> = {
  open: 'info',
  waiting: 'accent',
  closed: 'neutral',
};

/** A conversation in the list: its subject, where it stands, its last message, unread answers. */
export function ConversationRow({ item }: { item: SupportConversationSummary }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const unread = item.unread > 0;
  return (
    <Link
      to={href(ROUTES.supportThread, { conversationId: item.id })}
      className="flex flex-col gap-1 rounded-card bg-white px-4 py-3 shadow-card transition-colors hover:bg-mist-50"
    >
      <span className="flex items-start justify-between gap-3">
        <span
          className={cx('min-w-0 text-body text-ocean-950', unread ? 'font-bold' : 'font-medium')}
        >
          {subjectLine(t, item.subject)}
        </span>
        <Badge tone={STATE_TONES[item.state]}>{t(`support.state.${item.state}`)}</Badge>
      </span>
      <span className="text-caption break-words text-mist-700">{item.lastMessage}</span>
      <span className="flex items-center justify-between gap-3 text-caption text-mist-500">
        <span>{f.dateTime(item.lastMessageAt)}</span>
        {unread && (
          <Badge tone="accent">
            <span aria-hidden="true">{item.unread}</span>
            <span className="sr-only">{t('support.badge', { count: item.unread })}</span>
          </Badge>
        )}
      </span>
    </Link>
  );
}

/**
 * A new conversation written offline: on the device until the connection is back. One the API
 * refused says why, and the customer can remove it.
 */
export function WaitingRow({ entry }: { entry: OutboxEntry }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const userId = useSession().user?.id;
  const subject = { type: entry.subject?.type ?? 'general', reference: entry.reference };
  return (
    <div className="flex flex-col gap-1 rounded-card bg-white px-4 py-3 shadow-card">
      <span className="text-body font-medium text-ocean-950">{subjectLine(t, subject)}</span>
      <span className="text-caption break-words text-mist-700">{entry.body}</span>
      {entry.failed ? (
        <span className="flex items-center justify-between gap-3 text-caption text-danger-600">
          <span>
            {t('support.outbox.failed', {
              reason: errorMessage({ code: entry.failed, message: '' }),
            })}
          </span>
          {userId && (
            <Button variant="ghost" size="md" onClick={() => forgetMessage(userId, entry.clientId)}>
              {t('support.outbox.remove')}
            </Button>
          )}
        </span>
      ) : (
        <span className="text-caption text-warning-600">{t('support.outbox.waiting')}</span>
      )}
    </div>
  );
}
