import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SupportAttachment } from '@alda/contract/schemas/support';
import { useAppServices } from '@/shared/services/app-services';
import { ErrorIcon } from '@/shared/ui/icons';
import { useModal } from '@/shared/ui/modal/modal-context';
import { Skeleton } from '@/shared/ui/skeleton';
import { supportApi } from './support-api';

/**
 * A photo of a message, fetched with the customer's token (an `<img src>` cannot send it) and
 * shown through an object URL, given back when the photo leaves the screen. `failed` when it
 * could not be fetched.
 */
function usePhotoUrl(attachmentId: string): string | 'failed' | null {
  const { http } = useAppServices();
  const [url, setUrl] = useState<string | 'failed' | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    let objectUrl: string | null = null;
    void supportApi.photo(http, attachmentId, abort.signal).then((result) => {
      if (abort.signal.aborted) return;
      if (!result.ok) {
        setUrl('failed');
        return;
      }
      objectUrl = URL.createObjectURL(result.data);
      setUrl(objectUrl);
    });
    return () => {
      abort.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [http, attachmentId]);
  return url;
}

/** A thumbnail is cropped to its square, not squeezed into it. */
export const COVER = { objectFit: 'cover' } as const;

/** A photo of a message as a thumbnail that opens larger (in the app's modal). */
export function AttachmentThumbnail({
  attachment,
  n,
}: {
  attachment: SupportAttachment;
  /** Which photo of the message it is, from 1 ("Photo 1"). */
  n: number;
}) {
  const { t } = useTranslation();
  const label = t('support.photo', { n });
  const modal = useModal();
  const url = usePhotoUrl(attachment.id);

  if (url === null) return <Skeleton className="size-16 rounded-xl" />;
  if (url === 'failed')
    return (
      <span
        role="img"
        aria-label={t('support.thread.photoFailed')}
        className="flex size-16 items-center justify-center rounded-xl bg-mist-100 text-mist-500"
      >
        <ErrorIcon className="size-5" />
      </span>
    );
  return (
    <button
      type="button"
      onClick={() =>
        void modal.custom({
          title: label,
          render: () => <img src={url} alt={label} className="w-full rounded-xl" />,
        })
      }
      aria-label={t('support.thread.openPhoto', { n })}
      className="overflow-hidden rounded-xl"
    >
      <img src={url} alt="" className="size-16" style={COVER} />
    </button>
  );
}
