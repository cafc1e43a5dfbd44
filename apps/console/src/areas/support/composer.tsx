import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ClipboardPaste, NotebookPen, Send } from 'lucide-react';
import type { Locale } from '@alda/contract/locale';
import { SUPPORT_MESSAGE_MAX_LENGTH } from '@alda/contract/schemas/support';
import { cx } from '@/shared/cx';
import { useErrorText } from '@/shared/error-text';
import { localeOf } from '@/shared/i18n';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextAreaField } from '@/shared/ui/text-area-field';
import { FieldFrame } from '@/shared/ui/text-field';
import { insertIntoDraft, replyBodyFor } from './format';
import { useSavedReplies, useWriteSupport } from './support-api';

/*
 * The desk writes (issue 46): an answer to the customer, or an internal note the customer never
 * sees — chosen before writing, and shown in the field's look, its hint and its button. A saved
 * reply is inserted in the customer's language (their account's; Faroese when not known) and can
 * be changed before it is sent.
 */

type Mode = 'answer' | 'note';

export function Composer({
  conversationId,
  customerLocale,
}: {
  conversationId: string;
  /** The customer's language; null when not known (anonymised, or the context not here yet). */
  customerLocale: Locale | null;
}) {
  const { t } = useTranslation('support');
  const errorText = useErrorText();
  const write = useWriteSupport(conversationId);
  const [mode, setMode] = useState<Mode>('answer');
  const [draft, setDraft] = useState('');
  const [invalid, setInvalid] = useState<'required' | 'tooLong' | null>(null);
  const [sent, setSent] = useState<Mode | null>(null);
  const modeName = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (write.isPending) return;
    const body = draft.trim();
    const problem = !body
      ? 'required'
      : body.length > SUPPORT_MESSAGE_MAX_LENGTH
        ? 'tooLong'
        : null;
    setInvalid(problem);
    setSent(null);
    if (problem) return;
    const internal = mode === 'note';
    write.mutate(
      { body, internal },
      {
        onSuccess: () => {
          setDraft('');
          setSent(mode);
        },
      },
    );
  };

  const insert = (text: string) => {
    setDraft((current) => insertIntoDraft(current, text));
    setInvalid(null);
    setSent(null);
  };

  const note = mode === 'note';
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={t('composer.label')}
      className={cx(
        'flex flex-col gap-4 rounded-xl border p-4',
        note ? 'border-dashed border-warning-600/50 bg-warning-50' : 'border-mist-200 bg-white',
      )}
    >
      <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <legend className="sr-only">{t('composer.mode')}</legend>
        {(['answer', 'note'] as const).map((value) => (
          <label
            key={value}
            className={cx(
              'inline-flex min-h-9 cursor-pointer items-center gap-2 rounded-lg border px-3 text-caption font-semibold',
              mode === value
                ? value === 'note'
                  ? 'border-warning-600 bg-white text-warning-600'
                  : 'border-ocean-700 bg-ocean-50 text-ocean-900'
                : 'border-mist-300 bg-white text-mist-700 hover:border-ocean-300',
            )}
          >
            <input
              type="radio"
              name={modeName}
              value={value}
              checked={mode === value}
              onChange={() => {
                setMode(value);
                setSent(null);
              }}
              className="accent-ocean-700"
            />
            {value === 'note' ? (
              <NotebookPen aria-hidden="true" className="size-4" />
            ) : (
              <Send aria-hidden="true" className="size-4" />
            )}
            {t(`composer.${value}`)}
          </label>
        ))}
      </fieldset>

      <SavedReplyPicker customerLocale={customerLocale} onInsert={insert} />

      <TextAreaField
        label={note ? t('composer.noteField') : t('composer.answerField')}
        hint={note ? t('composer.noteHint') : t('composer.answerHint')}
        error={invalid ? t(`composer.${invalid}`, { max: SUPPORT_MESSAGE_MAX_LENGTH }) : null}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          setInvalid(null);
          setSent(null);
        }}
        rows={5}
        maxLength={SUPPORT_MESSAGE_MAX_LENGTH}
      />

      {write.isPending ? (
        <p role="status" className="text-caption font-medium text-ocean-800">
          {note ? t('composer.savingNote') : t('composer.sending')}
        </p>
      ) : null}
      {write.isError ? <Notice tone="danger">{errorText(write.error)}</Notice> : null}
      {sent ? (
        <Notice tone="success">
          {sent === 'note' ? t('composer.noteSaved') : t('composer.sent')}
        </Notice>
      ) : null}

      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-caption text-mist-600" aria-live="off">
          {t('composer.count', { count: draft.length, max: SUPPORT_MESSAGE_MAX_LENGTH })}
        </p>
        <Button
          type="submit"
          pending={write.isPending}
          icon={
            note ? (
              <NotebookPen aria-hidden="true" className="size-4" />
            ) : (
              <Send aria-hidden="true" className="size-4" />
            )
          }
        >
          {note ? t('composer.submitNote') : t('composer.submitAnswer')}
        </Button>
      </div>
    </form>
  );
}

/**
 * "Saved reply": the replies by their titles in the console's language; Insert puts the chosen
 * one's text, in the customer's language, into the field.
 */
function SavedReplyPicker({
  customerLocale,
  onInsert,
}: {
  customerLocale: Locale | null;
  onInsert: (text: string) => void;
}) {
  const { t, i18n } = useTranslation('support');
  const replies = useSavedReplies();
  const [chosen, setChosen] = useState('');
  const items = replies.data?.items ?? [];
  const shown = localeOf(i18n);
  const language = customerLocale ?? 'fo';
  const reply = items.find((item) => item.id === chosen);

  if (replies.isPending || items.length === 0) {
    return replies.isError ? (
      <p className="text-caption text-mist-600">{t('composer.savedFailed')}</p>
    ) : null;
  }

  return (
    <div className="flex flex-wrap items-start gap-2">
      <FieldFrame
        label={t('composer.saved')}
        hint={
          customerLocale
            ? t('composer.savedHint', { language: t(`languageIn.${language}`) })
            : t('composer.savedHintUnknown')
        }
        className="min-w-56 flex-1"
      >
        {(control) => (
          <select
            {...control}
            value={chosen}
            onChange={(event) => setChosen(event.target.value)}
            className="min-h-11 rounded-lg border border-mist-300 bg-white px-3 text-body text-mist-900 hover:border-mist-400"
          >
            <option value="">{t('composer.savedNone')}</option>
            {items.map((item) => (
              <option key={item.id} value={item.id}>
                {shown === 'en' ? item.titleEn : item.titleFo}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <Button
        variant="secondary"
        // Level with the field, under its label.
        className="mt-6"
        disabled={!reply}
        icon={<ClipboardPaste aria-hidden="true" className="size-4" />}
        onClick={() => {
          if (!reply) return;
          onInsert(replyBodyFor(reply, language));
          setChosen('');
        }}
      >
        {t('composer.insert')}
      </Button>
    </div>
  );
}
