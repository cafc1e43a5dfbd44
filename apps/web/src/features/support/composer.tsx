import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@alda/contract/format/number';
import {
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_ATTACHMENTS_MAX,
  SUPPORT_MESSAGE_MAX_LENGTH,
} from '@alda/contract/schemas/support';
import { useOnline } from '@/shared/api/connectivity';
import type { ApiError, Result } from '@/shared/api/http';
import { useUnsavedChangesGuard } from '@/shared/forms/use-unsaved-changes-guard';
import { useErrorMessage } from '@/shared/i18n/use-error-message';
import { useLocale } from '@/shared/i18n/use-locale';
import { useAppServices } from '@/shared/services/app-services';
import { Alert } from '@/shared/ui/alert';
import { Button } from '@/shared/ui/button';
import { cx } from '@/shared/ui/cx';
import { CloseIcon } from '@/shared/ui/icons';
import { COVER } from './attachment-image';
import { isPassing } from './outbox';
import { PHOTO_ACCEPT, photoProblem, uploadBody } from './photos';
import { supportApi } from './support-api';
import { AddPhotoIcon, SendIcon } from './support-icons';

/** A message ready to go: its text, the device's id of it, and the photos uploaded for it. */
export interface OutgoingMessage {
  body: string;
  clientId: string;
  attachmentIds: string[];
}

interface Photo {
  key: string;
  file: File;
  /** A preview of the file on the device (an object URL, given back when it goes). */
  preview: string;
  /** The id the server gave it, once uploaded (a second try does not upload it again). */
  uploadedId: string | null;
  /** The browser cannot show it (HEIC outside Safari): a placeholder instead. */
  unshowable: boolean;
}

type Progress = { step: 'photo'; n: number; count: number } | { step: 'message' } | null;

/** "mb" with the limit in whole megabytes, for the texts. */
const MAX_MB = SUPPORT_ATTACHMENT_MAX_BYTES / (1024 * 1024);

/**
 * Writing to support (issue 46): plain text up to 2,000 characters with a live count, and up to
 * 3 photos (JPEG, PNG, HEIC; ≤ 5 MB each, checked here before anything is uploaded). Sending
 * uploads the photos one by one, then calls `send` with the same clientId on every try, so a
 * message that reached the server before a dropped answer is kept once.
 *
 * Offline, a text is handed to `keep` (the device's outbox) and goes when the connection is
 * back; photos cannot be uploaded then, which the composer says, keeping the text and photos.
 * Leaving with something written asks first (SPEC §2/§5 unsaved changes).
 */
export function Composer<T>({
  label,
  initialBody = '',
  send,
  keep,
  onSent,
  onKept,
  onFailed,
}: {
  label: string;
  /** Text to start with (a message the API would not take in a conversation closed too long). */
  initialBody?: string;
  send: (message: OutgoingMessage) => Promise<Result<T>>;
  /** Keeps a text-only message on the device (the outbox), to go once the connection is back. */
  keep: (message: { body: string; clientId: string }) => void;
  onSent: (data: T) => void;
  /** After a message was kept on the device (the composer then says so itself). */
  onKept?: () => void;
  onFailed?: (error: ApiError, body: string) => void;
}) {
  const { t } = useTranslation();
  const [locale] = useLocale();
  const errorMessage = useErrorMessage();
  const { http } = useAppServices();
  const online = useOnline();
  const maxLength = formatNumber(SUPPORT_MESSAGE_MAX_LENGTH, locale);
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [body, setBody] = useState(initialBody);
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [offlinePhotos, setOfflinePhotos] = useState(false);
  const [progress, setProgress] = useState<Progress>(null);
  const [kept, setKept] = useState(false);
  const clientId = useRef<string | null>(null);
  const nextKey = useRef(0);

  const dirty = body.trim() !== '' || photos.length > 0;
  const release = useUnsavedChangesGuard(dirty);
  const tooLong = body.length > SUPPORT_MESSAGE_MAX_LENGTH;
  const empty = body.trim() === '';
  const busy = progress !== null;

  // The previews are given back when the composer goes (a sent message's, when it is cleared).
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const owned = previews.current;
    return () => {
      for (const url of owned) URL.revokeObjectURL(url);
      owned.clear();
    };
  }, []);
  const dropPreview = (url: string) => {
    URL.revokeObjectURL(url);
    previews.current.delete(url);
  };

  const edited = () => {
    release(false);
    setKept(false);
    setError(null);
    // A changed message is another message: a retry of the old one keeps its id, this not.
    clientId.current = null;
  };

  const onText = (event: ChangeEvent<HTMLTextAreaElement>) => {
    edited();
    setBody(event.target.value);
  };

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // The same file may be chosen again after it was removed.
    event.target.value = '';
    if (files.length === 0) return;
    edited();
    setOfflinePhotos(false);
    const found: string[] = [];
    const added: Photo[] = [];
    for (const file of files) {
      const problem = photoProblem(file);
      if (problem === 'type') found.push(t('support.composer.photoType', { name: file.name }));
      else if (problem === 'size')
        found.push(t('support.composer.photoTooLarge', { name: file.name, max: MAX_MB }));
      else if (photos.length + added.length >= SUPPORT_ATTACHMENTS_MAX)
        found.push(t('support.composer.tooManyPhotos', { max: SUPPORT_ATTACHMENTS_MAX }));
      else {
        const preview = URL.createObjectURL(file);
        previews.current.add(preview);
        nextKey.current += 1;
        added.push({
          key: `photo-${nextKey.current}`,
          file,
          preview,
          uploadedId: null,
          unshowable: false,
        });
      }
    }
    setProblems([...new Set(found)]);
    if (added.length > 0) setPhotos((current) => [...current, ...added]);
  };

  const removePhoto = (key: string) => {
    edited();
    setOfflinePhotos(false);
    setPhotos((current) =>
      current.filter((photo) => {
        if (photo.key === key) dropPreview(photo.preview);
        return photo.key !== key;
      }),
    );
  };

  const clear = () => {
    for (const photo of photos) dropPreview(photo.preview);
    setBody('');
    setPhotos([]);
    setProblems([]);
    setTried(false);
    setOfflinePhotos(false);
    clientId.current = null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setTried(true);
    setError(null);
    if (empty || tooLong) return;
    const text = body.trim();
    clientId.current ??= crypto.randomUUID();
    const message = { body: text, clientId: clientId.current };

    /** Kept on the device, to go (with the same clientId) once the connection is back. */
    const keepForLater = () => {
      keep(message);
      release();
      clear();
      setKept(true);
      onKept?.();
    };

    if (!online) {
      if (photos.length > 0) setOfflinePhotos(true);
      else keepForLater();
      return;
    }

    const attachmentIds: string[] = [];
    for (const [index, photo] of photos.entries()) {
      if (photo.uploadedId) {
        attachmentIds.push(photo.uploadedId);
        continue;
      }
      setProgress({ step: 'photo', n: index + 1, count: photos.length });
      const uploaded = await supportApi.upload(http, uploadBody(photo.file));
      if (!uploaded.ok) {
        setProgress(null);
        if (uploaded.error.code === 'OFFLINE') setOfflinePhotos(true);
        else setError(uploaded.error);
        return;
      }
      attachmentIds.push(uploaded.data.id);
      setPhotos((current) =>
        current.map((p) => (p.key === photo.key ? { ...p, uploadedId: uploaded.data.id } : p)),
      );
    }

    setProgress({ step: 'message' });
    const result = await send({ ...message, attachmentIds });
    setProgress(null);
    if (result.ok) {
      release();
      clear();
      onSent(result.data);
      return;
    }
    if (isPassing(result.error) && photos.length === 0) {
      // The connection went on the way: kept, and sent again (the same clientId) once it is back.
      keepForLater();
      return;
    }
    setError(result.error);
    onFailed?.(result.error, text);
  };

  const counterId = `${id}-count`;
  const messageId = `${id}-message`;
  const showRequired = tried && empty;
  const invalid = tooLong || showRequired;
  const progressText =
    progress?.step === 'photo'
      ? t('support.composer.sendingPhoto', { n: progress.n, total: progress.count })
      : progress?.step === 'message'
        ? t('support.composer.sending')
        : '';

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-body`} className="text-caption font-semibold text-mist-700">
          {label}
        </label>
        <textarea
          id={`${id}-body`}
          value={body}
          onChange={onText}
          rows={4}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${messageId} ${counterId}` : counterId}
          className={cx(
            'block w-full rounded-control border bg-white px-4 py-3 text-body text-mist-900 transition-colors',
            'placeholder:text-mist-500 focus:outline-none focus-visible:outline-none focus:ring-4',
            invalid
              ? 'border-danger-600 focus:ring-danger-50'
              : 'border-mist-300 focus:border-fjord-500 focus:ring-fjord-100',
          )}
        />
        <div className="flex items-start justify-between gap-3">
          <p id={messageId} className="text-caption font-medium text-danger-600">
            {tooLong
              ? t('support.composer.tooLong', { max: maxLength })
              : showRequired
                ? t('support.composer.required')
                : null}
          </p>
          <p
            id={counterId}
            className={cx(
              'text-caption whitespace-nowrap tabular-nums',
              tooLong ? 'font-semibold text-danger-600' : 'text-mist-500',
            )}
          >
            {t('support.composer.count', {
              length: formatNumber(body.length, locale),
              max: maxLength,
            })}
          </p>
        </div>
      </div>

      {photos.length > 0 && (
        <ul aria-label={t('support.composer.photos')} className="flex flex-wrap gap-3">
          {photos.map((photo, index) => {
            const n = index + 1;
            const name = t('support.photo', { n });
            return (
              <li key={photo.key} className="flex flex-col items-center gap-1">
                {photo.unshowable ? (
                  <span className="flex size-16 items-center justify-center rounded-xl bg-mist-100 px-1 text-center text-caption break-all text-mist-600">
                    {photo.file.name}
                  </span>
                ) : (
                  <img
                    src={photo.preview}
                    alt={name}
                    className="size-16 rounded-xl"
                    style={COVER}
                    onError={() =>
                      setPhotos((current) =>
                        current.map((p) => (p.key === photo.key ? { ...p, unshowable: true } : p)),
                      )
                    }
                  />
                )}
                <Button
                  variant="ghost"
                  size="md"
                  disabled={busy}
                  onClick={() => removePhoto(photo.key)}
                  aria-label={t('support.composer.removePhoto', { n })}
                  icon={<CloseIcon className="size-5" />}
                />
              </li>
            );
          })}
        </ul>
      )}

      {problems.length > 0 && (
        <Alert tone="error">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </Alert>
      )}
      {offlinePhotos && <Alert tone="warning">{t('support.composer.offlinePhotos')}</Alert>}
      {kept && <Alert tone="info">{t('support.composer.kept')}</Alert>}
      {error && <Alert tone="error">{errorMessage(error)}</Alert>}

      <input
        ref={fileInput}
        type="file"
        // Without `capture`, a phone offers both its camera and its photo library.
        accept={PHOTO_ACCEPT}
        multiple
        hidden
        aria-label={t('support.composer.addPhoto')}
        onChange={onFiles}
      />
      <p className="text-caption text-mist-500">
        {t('support.composer.photosHint', { max: SUPPORT_ATTACHMENTS_MAX, mb: MAX_MB })}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button
          variant="secondary"
          size="md"
          disabled={busy || photos.length >= SUPPORT_ATTACHMENTS_MAX}
          onClick={() => fileInput.current?.click()}
          icon={<AddPhotoIcon className="size-5" />}
        >
          {t('support.composer.addPhoto')}
        </Button>
        <Button type="submit" size="md" loading={busy} icon={<SendIcon className="size-5" />}>
          {busy ? progressText : t('support.composer.send')}
        </Button>
      </div>
      <p role="status" className="sr-only">
        {progressText}
      </p>
    </form>
  );
}
