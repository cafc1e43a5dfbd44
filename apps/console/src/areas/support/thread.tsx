import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Headset, ImageOff, LoaderCircle, NotebookPen, UserRound } from 'lucide-react';
import type { SupportAttachment } from '@alda/contract/schemas/support';
import type { StaffSupportMessage } from '@alda/contract/schemas/staff-support';
import { cx } from '@/shared/cx';
import { formatDateTime } from './format';
import { MessageText } from './message-text';
import { useAttachment } from './support-api';

/*
 * The thread as the desk sees it, oldest first: the customer's messages on the left, the desk's
 * answers on the right, internal notes across in amber, dashed, with a notepad icon and the words
 * "Internal note — the customer does not see this" — told apart by place, icon and words, not by
 * colour alone. Texts are text (MessageText); images are thumbnails fetched with the staff token.
 */

const KIND_STYLE: Record<StaffSupportMessage['kind'], string> = {
  customer: 'mr-8 border-mist-200 bg-white lg:mr-16',
  staff: 'ml-8 border-ocean-200 bg-ocean-50 lg:ml-16',
  note: 'mx-0 border-dashed border-warning-600/50 bg-warning-50',
};

export function Thread({
  messages,
  customerName,
}: {
  messages: StaffSupportMessage[];
  customerName: string;
}) {
  const { t } = useTranslation('support');
  if (messages.length === 0)
    return <p className="py-6 text-center text-body text-mist-600">{t('thread.empty')}</p>;
  return (
    <ol className="flex flex-col gap-3" aria-label={t('thread.label')}>
      {messages.map((message) => (
        <li key={message.id}>
          <Message message={message} customerName={customerName} />
        </li>
      ))}
    </ol>
  );
}

function Message({
  message,
  customerName,
}: {
  message: StaffSupportMessage;
  customerName: string;
}) {
  const { t } = useTranslation('support');
  const Icon =
    message.kind === 'customer' ? UserRound : message.kind === 'staff' ? Headset : NotebookPen;
  const who =
    message.kind === 'customer'
      ? customerName
      : message.kind === 'staff'
        ? t('thread.staffAuthor', { name: message.author ?? t('thread.desk') })
        : (message.author ?? t('thread.desk'));
  return (
    <article
      className={cx('rounded-xl border px-4 py-3', KIND_STYLE[message.kind])}
      aria-label={t(`thread.kind.${message.kind}`)}
    >
      <header className="mb-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-caption">
        <Icon aria-hidden="true" className="size-4 shrink-0 text-mist-600" />
        <span className="font-semibold text-mist-900">{who}</span>
        <time dateTime={message.createdAt} className="text-mist-600">
          {formatDateTime(message.createdAt)}
        </time>
      </header>
      {message.kind === 'note' ? (
        <p className="mb-1.5 text-caption font-semibold text-warning-600">
          {t('thread.noteLabel')}
        </p>
      ) : null}
      <MessageText text={message.body} className="text-body text-mist-900" />
      {message.attachments.length > 0 ? (
        <ul className="mt-2.5 flex flex-wrap gap-2" aria-label={t('thread.images')}>
          {message.attachments.map((attachment, index) => (
            <li key={attachment.id}>
              <Thumbnail attachment={attachment} number={index + 1} />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

/**
 * An image of a message, small; a click opens it full size in a new tab. Its bytes come with the
 * staff token (support-api.ts) and are shown through an object URL made here and let go when the
 * thumbnail goes.
 */
function Thumbnail({ attachment, number }: { attachment: SupportAttachment; number: number }) {
  const { t } = useTranslation('support');
  const image = useAttachment(attachment.id);
  const link = useRef<HTMLAnchorElement>(null);
  const img = useRef<HTMLImageElement>(null);
  const blob = image.data;

  useEffect(() => {
    if (!blob || !link.current || !img.current) return;
    const url = URL.createObjectURL(blob);
    link.current.href = url;
    img.current.src = url;
    return () => URL.revokeObjectURL(url);
  }, [blob]);

  const frame =
    'flex size-24 items-center justify-center overflow-hidden rounded-lg border border-mist-200 bg-mist-100';
  const name = t('thread.image', { number });
  if (image.isError)
    return (
      <span className={cx(frame, 'flex-col gap-1 p-1 text-center text-tab text-mist-700')}>
        <ImageOff aria-hidden="true" className="size-5" />
        {t('thread.imageFailed', { number })}
      </span>
    );
  if (!blob)
    return (
      <span className={frame} role="status">
        <LoaderCircle aria-hidden="true" className="size-5 animate-spin text-mist-500" />
        <span className="sr-only">{t('thread.imageLoading', { number })}</span>
      </span>
    );
  return (
    <a
      ref={link}
      target="_blank"
      rel="noopener noreferrer"
      className={cx(frame, 'hover:border-ocean-300')}
      title={t('thread.imageOpen')}
    >
      <img
        ref={img}
        alt={name}
        width={attachment.width}
        height={attachment.height}
        className="size-full object-cover"
      />
    </a>
  );
}
