import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { SUPPORT_MESSAGE_MAX_LENGTH } from '@alda/contract/schemas/support';
import {
  type SupportSavedReply,
  type SupportSavedReplyRequest,
} from '@alda/contract/schemas/staff-support';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { ModalDialog } from '@/shared/ui/modal-dialog';
import { Notice } from '@/shared/ui/notice';
import { PageHeader } from '@/shared/ui/page-header';
import { ListInfo, QueryList } from '@/shared/ui/query-list';
import { TextAreaField } from '@/shared/ui/text-area-field';
import { TextField } from '@/shared/ui/text-field';
import { formatDateTime } from './format';
import { MessageText } from './message-text';
import { useDeleteReply, useSaveReply, useSavedReplies } from './support-api';
import { SupportHelp } from './support-help';

/*
 * `/console/saved-replies` (issue 46 "saved replies, which the content role manages in both
 * languages"): the list with both languages side by side, New, Edit and Delete (asked first). The
 * desk reads them in a conversation's picker; every change is in the audit log (server side).
 */

/** Longest title (the contract's rule; the API answers TOO_LONG past it). */
const TITLE_MAX_LENGTH = 120;

type Field = keyof SupportSavedReplyRequest;
type Errors = Partial<Record<Field, string>>;

const EMPTY: SupportSavedReplyRequest = { titleFo: '', titleEn: '', bodyFo: '', bodyEn: '' };
const FIELDS: readonly Field[] = ['titleFo', 'titleEn', 'bodyFo', 'bodyEn'];
const isField = (value: string | undefined): value is Field =>
  (FIELDS as readonly (string | undefined)[]).includes(value);

export function SavedRepliesScreen() {
  const { t } = useTranslation('support');
  const replies = useSavedReplies();
  const remove = useDeleteReply();
  /** The reply being edited: null for a new one; undefined while the editor is closed. */
  const [editing, setEditing] = useState<SupportSavedReply | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<SupportSavedReply | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const errorText = useErrorText();
  const items = replies.data?.items ?? [];

  return (
    <>
      <PageHeader
        title={t('saved.title')}
        lead={t('saved.lead')}
        actions={
          <Button
            icon={<Plus aria-hidden="true" className="size-4" />}
            onClick={() => {
              setDone(null);
              setEditing(null);
            }}
          >
            {t('saved.new')}
          </Button>
        }
      />
      <SupportHelp topic="savedReplies" />
      {done ? (
        <Notice tone="success" className="mb-3">
          {done}
        </Notice>
      ) : null}

      <QueryList
        query={replies}
        texts={{
          loading: t('saved.loading'),
          loadFailed: t('saved.loadFailed'),
          retry: t('saved.retry'),
        }}
        info={
          <ListInfo updatedAt={replies.dataUpdatedAt}>
            {t('saved.found', { count: items.length })}
          </ListInfo>
        }
      >
        {items.length === 0 ? (
          <p className="rounded-xl border border-mist-200 bg-white px-4 py-8 text-center text-body text-mist-600">
            {t('saved.empty')}
          </p>
        ) : (
          <ul className="flex flex-col gap-3">
            {items.map((reply) => (
              <li key={reply.id}>
                <article
                  aria-labelledby={`reply-${reply.id}`}
                  className="rounded-xl border border-mist-200 bg-white p-4"
                >
                  <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
                    <div>
                      <h2 id={`reply-${reply.id}`} className="text-body font-bold text-ocean-950">
                        <span lang="fo">{reply.titleFo}</span>
                      </h2>
                      <p className="text-caption text-mist-600">
                        {t('saved.updated', { time: formatDateTime(reply.updatedAt) })}
                      </p>
                    </div>
                    <div className="flex gap-2">
                      <Button
                        variant="secondary"
                        size="sm"
                        icon={<Pencil aria-hidden="true" className="size-4" />}
                        aria-label={t('saved.editFor', { title: reply.titleFo })}
                        onClick={() => {
                          setDone(null);
                          setEditing(reply);
                        }}
                      >
                        {t('saved.edit')}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        icon={<Trash2 aria-hidden="true" className="size-4" />}
                        aria-label={t('saved.deleteFor', { title: reply.titleFo })}
                        onClick={() => {
                          setDone(null);
                          remove.reset();
                          setDeleting(reply);
                        }}
                      >
                        {t('saved.delete')}
                      </Button>
                    </div>
                  </div>
                  <div className="grid gap-4 md:grid-cols-2">
                    <Language lang="fo" title={reply.titleFo} body={reply.bodyFo} />
                    <Language lang="en" title={reply.titleEn} body={reply.bodyEn} />
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </QueryList>

      {editing !== undefined ? (
        <ReplyDialog
          reply={editing}
          onClose={() => setEditing(undefined)}
          onSaved={(saved) => {
            setEditing(undefined);
            setDone(
              editing
                ? t('saved.changed', { title: saved.titleFo })
                : t('saved.created', { title: saved.titleFo }),
            );
          }}
        />
      ) : null}

      {deleting ? (
        <ModalDialog
          title={t('saved.deleteTitle')}
          lead={t('saved.deleteLead', { title: deleting.titleFo })}
          leadDescribes
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
        >
          <div className="flex flex-col gap-4">
            {remove.isPending ? (
              <p role="status" className="text-caption font-medium text-ocean-800">
                {t('saved.deleting')}
              </p>
            ) : null}
            {remove.isError ? <Notice tone="danger">{errorText(remove.error)}</Notice> : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button
                variant="secondary"
                disabled={remove.isPending}
                onClick={() => setDeleting(null)}
              >
                {t('saved.cancel')}
              </Button>
              <Button
                variant="danger"
                pending={remove.isPending}
                onClick={() =>
                  remove.mutate(deleting.id, {
                    onSuccess: () => {
                      setDone(t('saved.deleted', { title: deleting.titleFo }));
                      setDeleting(null);
                    },
                  })
                }
              >
                {t('saved.deleteConfirm')}
              </Button>
            </div>
          </div>
        </ModalDialog>
      ) : null}
    </>
  );
}

/** One language of a reply: its name, title and text (as the desk inserts it). */
function Language({ lang, title, body }: { lang: 'fo' | 'en'; title: string; body: string }) {
  const { t } = useTranslation('support');
  return (
    <section lang={lang} className="flex min-w-0 flex-col gap-1 rounded-lg bg-mist-50 p-3">
      <p className="text-tab font-semibold tracking-wide text-mist-600 uppercase">
        {t(`languageNames.${lang}`, { ns: 'common' })}
      </p>
      <p className="text-caption font-semibold text-mist-900">{title}</p>
      <MessageText text={body} className="text-caption text-mist-800" />
    </section>
  );
}

/** New or Edit: title and text in Faroese and English, all four required. */
function ReplyDialog({
  reply,
  onClose,
  onSaved,
}: {
  reply: SupportSavedReply | null;
  onClose: () => void;
  onSaved: (saved: SupportSavedReply) => void;
}) {
  const { t } = useTranslation('support');
  const errorText = useErrorText();
  const save = useSaveReply();
  const [draft, setDraft] = useState<SupportSavedReplyRequest>(
    reply
      ? {
          titleFo: reply.titleFo,
          titleEn: reply.titleEn,
          bodyFo: reply.bodyFo,
          bodyEn: reply.bodyEn,
        }
      : EMPTY,
  );
  const [errors, setErrors] = useState<Errors>({});

  const set = (field: Field) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found: Errors = {};
    const body: SupportSavedReplyRequest = { ...EMPTY };
    for (const field of FIELDS) {
      const value = draft[field].trim();
      const max = field.startsWith('title') ? TITLE_MAX_LENGTH : SUPPORT_MESSAGE_MAX_LENGTH;
      if (!value) found[field] = t('editor.required');
      else if (value.length > max) found[field] = t('editor.tooLong', { max });
      body[field] = value;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      { id: reply?.id ?? null, body },
      {
        onSuccess: onSaved,
        onError: (error) => {
          const field = isApiError(error) ? error.details.field : undefined;
          if (isField(field)) setErrors({ [field]: errorText(error) });
        },
      },
    );
  };

  const fieldError = isApiError(save.error) && isField(save.error.details.field);

  return (
    <ModalDialog
      title={reply ? t('editor.editTitle') : t('editor.newTitle')}
      lead={t('editor.lead')}
      wide
      pending={save.isPending}
      onClose={onClose}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <div className="grid gap-4 md:grid-cols-2">
          {(['fo', 'en'] as const).map((lang) => {
            const title = lang === 'fo' ? 'titleFo' : 'titleEn';
            const text = lang === 'fo' ? 'bodyFo' : 'bodyEn';
            return (
              <fieldset
                key={lang}
                className="flex min-w-0 flex-col gap-4 rounded-xl border border-mist-200 p-4"
              >
                <legend className="px-1 text-caption font-semibold text-mist-700">
                  {t(`languageNames.${lang}`, { ns: 'common' })}
                </legend>
                <TextField
                  label={t(`editor.${title}`)}
                  value={draft[title]}
                  lang={lang}
                  onChange={(event) => set(title)(event.target.value)}
                  error={errors[title]}
                  maxLength={TITLE_MAX_LENGTH}
                  autoComplete="off"
                  autoFocus={lang === 'fo'}
                />
                <TextAreaField
                  label={t(`editor.${text}`)}
                  hint={t('editor.bodyHint')}
                  value={draft[text]}
                  lang={lang}
                  onChange={(event) => set(text)(event.target.value)}
                  error={errors[text]}
                  rows={6}
                  maxLength={SUPPORT_MESSAGE_MAX_LENGTH}
                />
              </fieldset>
            );
          })}
        </div>
        {save.isPending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('editor.saving')}
          </p>
        ) : null}
        {save.isError && !fieldError ? (
          <Notice tone="danger">{errorText(save.error)}</Notice>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" disabled={save.isPending} onClick={onClose}>
            {t('editor.cancel')}
          </Button>
          <Button type="submit" pending={save.isPending}>
            {t('editor.save')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
