import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageChoice } from '@/shared/ui/language-choice';
import { Send } from 'lucide-react';
import type { Locale } from '@alda/contract/locale';
import { staffReason } from '@alda/contract/schemas/staff';
import {
  STATUS_BODY_MAX_LENGTH,
  STATUS_TITLE_MAX_LENGTH,
  type StaffStatusMessage,
  type StaffStatusPublishRequest,
} from '@alda/contract/schemas/staff-status';
import { formatDateTime } from '@alda/contract/format/date';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextAreaField } from '@/shared/ui/text-area-field';
import { TextField } from '@/shared/ui/text-field';
import { fromFaroeInput } from './faroe-time';
import { usePublishStatus } from './status-api';
import { StatusPreview } from './status-preview';

/*
 * Compose a status message: title and body in Faroese and English side by side, the window in
 * Faroese time, an optional reason, whether it is urgent (also pushed to every customer with push
 * notifications on, even in their quiet hours: issue 64) — and beside it the message as the app
 * will show it, in the language chosen (the preview follows the language of the field being typed
 * in). The rules are the API's (400 STATUS_WINDOW_INVALID and the rest); the form says the same
 * before it sends.
 */

interface Draft {
  titleFo: string;
  titleEn: string;
  bodyFo: string;
  bodyEn: string;
  from: string;
  to: string;
  reason: string;
}

type Field = keyof Draft;
type Errors = Partial<Record<Field, string>>;

const EMPTY: Draft = {
  titleFo: '',
  titleEn: '',
  bodyFo: '',
  bodyEn: '',
  from: '',
  to: '',
  reason: '',
};

/** The API's field names of a publish request, as the form's. */
const FIELD_OF: Record<string, Field> = {
  titleFo: 'titleFo',
  titleEn: 'titleEn',
  bodyFo: 'bodyFo',
  bodyEn: 'bodyEn',
  activeFrom: 'from',
  activeTo: 'to',
  reason: 'reason',
};

export function ComposeForm({ now = () => new Date() }: { now?: () => Date }) {
  const { t } = useTranslation('status');
  const errorText = useErrorText();
  const publish = usePublishStatus();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [language, setLanguage] = useState<Locale>('fo');
  const [done, setDone] = useState<StaffStatusMessage | null>(null);
  // Off again after each message: pushing to every customer is chosen each time, never left on.
  const [urgent, setUrgent] = useState(false);
  const urgentId = useId();

  const set = (field: Field) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const from = fromFaroeInput(draft.from);
  const scheduled = from !== null && from.getTime() > now().getTime();

  function check(): { errors: Errors; body?: StaffStatusPublishRequest } {
    const found: Errors = {};
    const text = (field: 'titleFo' | 'titleEn' | 'bodyFo' | 'bodyEn', max: number) => {
      const value = draft[field].trim();
      if (!value) found[field] = t('compose.required');
      else if (value.length > max) found[field] = t('compose.tooLong', { max });
      return value;
    };
    const titleFo = text('titleFo', STATUS_TITLE_MAX_LENGTH);
    const titleEn = text('titleEn', STATUS_TITLE_MAX_LENGTH);
    const bodyFo = text('bodyFo', STATUS_BODY_MAX_LENGTH);
    const bodyEn = text('bodyEn', STATUS_BODY_MAX_LENGTH);
    const start = draft.from ? fromFaroeInput(draft.from) : null;
    if (draft.from && !start) found.from = t('compose.invalidTime');
    const end = draft.to ? fromFaroeInput(draft.to) : null;
    if (draft.to && !end) found.to = t('compose.invalidTime');
    const at = now();
    if (end && end.getTime() <= at.getTime()) found.to = t('compose.toInPast');
    else if (end && start && end.getTime() <= start.getTime()) found.to = t('compose.toBeforeFrom');
    const reason = draft.reason.trim();
    if (reason && !staffReason.safeParse(reason).success) found.reason = t('compose.reasonShort');
    if (Object.keys(found).length > 0) return { errors: found };
    return {
      errors: found,
      body: {
        titleFo,
        titleEn,
        bodyFo,
        bodyEn,
        activeFrom: start ? start.toISOString() : null,
        activeTo: end ? end.toISOString() : null,
        ...(reason ? { reason } : {}),
        urgent,
      },
    };
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (publish.isPending) return;
    const checked = check();
    setErrors(checked.errors);
    setDone(null);
    if (!checked.body) return;
    publish.mutate(checked.body, {
      onSuccess: (message) => {
        setDone(message);
        setDraft(EMPTY);
        setUrgent(false);
      },
      onError: (error) => {
        const field =
          isApiError(error) && error.details.field ? FIELD_OF[error.details.field] : undefined;
        if (field) setErrors({ [field]: errorText(error) });
      },
    });
  };

  const failure =
    publish.isError &&
    !(
      isApiError(publish.error) &&
      publish.error.details.field &&
      FIELD_OF[publish.error.details.field]
    )
      ? publish.error
      : null;

  const focusLanguage = (lang: Locale) => () => setLanguage(lang);

  return (
    <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_22.5rem]">
      <form noValidate onSubmit={submit} className="flex min-w-0 flex-col gap-5">
        <div className="grid gap-5 md:grid-cols-2">
          <fieldset
            className="flex min-w-0 flex-col gap-4 rounded-xl border border-mist-200 bg-white p-4"
            onFocus={focusLanguage('fo')}
          >
            <legend className="px-1 text-caption font-semibold text-mist-700">
              {t('languageNames.fo', { ns: 'common' })}
            </legend>
            <TextField
              label={t('compose.titleFo')}
              value={draft.titleFo}
              lang="fo"
              onChange={(e) => set('titleFo')(e.target.value)}
              error={errors.titleFo}
              maxLength={STATUS_TITLE_MAX_LENGTH}
              autoComplete="off"
            />
            <TextAreaField
              label={t('compose.bodyFo')}
              value={draft.bodyFo}
              lang="fo"
              onChange={(e) => set('bodyFo')(e.target.value)}
              error={errors.bodyFo}
              rows={5}
              maxLength={STATUS_BODY_MAX_LENGTH}
            />
          </fieldset>
          <fieldset
            className="flex min-w-0 flex-col gap-4 rounded-xl border border-mist-200 bg-white p-4"
            onFocus={focusLanguage('en')}
          >
            <legend className="px-1 text-caption font-semibold text-mist-700">
              {t('languageNames.en', { ns: 'common' })}
            </legend>
            <TextField
              label={t('compose.titleEn')}
              value={draft.titleEn}
              lang="en"
              onChange={(e) => set('titleEn')(e.target.value)}
              error={errors.titleEn}
              maxLength={STATUS_TITLE_MAX_LENGTH}
              autoComplete="off"
            />
            <TextAreaField
              label={t('compose.bodyEn')}
              value={draft.bodyEn}
              lang="en"
              onChange={(e) => set('bodyEn')(e.target.value)}
              error={errors.bodyEn}
              rows={5}
              maxLength={STATUS_BODY_MAX_LENGTH}
            />
          </fieldset>
        </div>

        <fieldset className="grid gap-4 rounded-xl border border-mist-200 bg-white p-4 md:grid-cols-2">
          <legend className="px-1 text-caption font-semibold text-mist-700">
            {t('compose.window')}
          </legend>
          <TextField
            type="datetime-local"
            label={t('compose.from')}
            hint={t('compose.fromHint')}
            value={draft.from}
            onChange={(e) => set('from')(e.target.value)}
            error={errors.from}
          />
          <TextField
            type="datetime-local"
            label={t('compose.to')}
            hint={t('compose.toHint')}
            value={draft.to}
            onChange={(e) => set('to')(e.target.value)}
            error={errors.to}
          />
          <TextField
            className="md:col-span-2"
            label={t('compose.reason')}
            hint={t('compose.reasonHint')}
            value={draft.reason}
            onChange={(e) => set('reason')(e.target.value)}
            error={errors.reason}
            maxLength={500}
            autoComplete="off"
          />
        </fieldset>

        <div className="flex gap-3 rounded-xl border border-mist-200 bg-white p-4">
          <input
            id={urgentId}
            type="checkbox"
            checked={urgent}
            onChange={(e) => setUrgent(e.target.checked)}
            aria-describedby={`${urgentId}-hint`}
            className="mt-0.5 size-5 shrink-0 accent-ocean-800"
          />
          <div className="flex flex-col gap-1">
            <label htmlFor={urgentId} className="text-body font-semibold text-mist-900">
              {t('compose.urgent')}
            </label>
            <p id={`${urgentId}-hint`} className="text-caption text-mist-600">
              {t('compose.urgentHint')}
            </p>
          </div>
        </div>

        {publish.isPending ? (
          <p role="status" className="text-caption font-medium text-ocean-800">
            {t('compose.pending')}
          </p>
        ) : null}
        {failure ? <Notice tone="danger">{errorText(failure)}</Notice> : null}
        {done ? (
          <Notice tone="success">
            {done.state === 'scheduled' && done.activeFrom
              ? t('compose.scheduled', { from: formatDateTime(done.activeFrom) })
              : t('compose.published')}
            {done.urgent ? ` ${t('compose.urgentSent')}` : null}
          </Notice>
        ) : null}

        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            pending={publish.isPending}
            icon={<Send aria-hidden="true" className="size-4" />}
          >
            {scheduled ? t('compose.submitScheduled') : t('compose.submitNow')}
          </Button>
          <Button
            variant="ghost"
            disabled={publish.isPending}
            onClick={() => {
              setDraft(EMPTY);
              setUrgent(false);
              setErrors({});
              setDone(null);
              publish.reset();
            }}
          >
            {t('compose.clear')}
          </Button>
        </div>
      </form>

      <section aria-labelledby="status-preview-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="status-preview-heading" className="text-body font-semibold text-ocean-950">
            {t('preview.heading')}
          </h3>
          <LanguageChoice label={t('preview.language')} value={language} onChange={setLanguage} />
        </div>
        <StatusPreview
          language={language}
          title={language === 'fo' ? draft.titleFo : draft.titleEn}
          body={language === 'fo' ? draft.bodyFo : draft.bodyEn}
        />
        <p className="text-caption text-mist-600">{t('preview.hint')}</p>
      </section>
    </div>
  );
}
