import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageChoice } from '@/shared/ui/language-choice';
import { CircleAlert, Save, Upload } from 'lucide-react';
import type { Locale } from '@alda/contract/locale';
import {
  CONTENT_MARKDOWN_MAX_LENGTH,
  CONTENT_TITLE_MAX_LENGTH,
  type StaffContentDraftRequest,
  type StaffContentVersion,
} from '@alda/contract/schemas/staff-content';
import { isApiError } from '@/shared/api';
import { useErrorText } from '@/shared/error-text';
import { Button } from '@/shared/ui/button';
import { Notice } from '@/shared/ui/notice';
import { TextAreaField } from '@/shared/ui/text-area-field';
import { TextField } from '@/shared/ui/text-field';
import { useSaveDraft } from './content-api';
import { ContentPreview } from './content-preview';

/*
 * The editor of a draft: the titles in Faroese and English, and the markdown of one language at
 * a time beside its preview as the app renders it. Opened on a draft it edits that draft (PUT);
 * opened on a published version it writes a new draft prefilled from it (POST) — a published
 * version is never edited. Publishing is offered for a saved draft without unsaved changes.
 */

type Field = keyof StaffContentDraftRequest;
type Errors = Partial<Record<Field, string>>;

const textsOf = (version: StaffContentVersion): StaffContentDraftRequest => ({
  titleFo: version.titleFo,
  titleEn: version.titleEn,
  markdownFo: version.markdownFo,
  markdownEn: version.markdownEn,
});

const same = (a: StaffContentDraftRequest, b: StaffContentDraftRequest) =>
  a.titleFo === b.titleFo &&
  a.titleEn === b.titleEn &&
  a.markdownFo === b.markdownFo &&
  a.markdownEn === b.markdownEn;

export interface DraftEditorProps {
  /** The version opened: a draft to edit, or a published one to start a new draft from. */
  base: StaffContentVersion;
  /** A draft was saved (a new one: its id to open). */
  onSaved: (version: StaffContentVersion) => void;
  /** The texts were changed (since the last save). */
  onEdit: () => void;
  /** Publish the draft (asks first). */
  onPublish: (version: StaffContentVersion) => void;
}

export function DraftEditor({ base, onSaved, onEdit, onPublish }: DraftEditorProps) {
  const { t } = useTranslation('content');
  const errorText = useErrorText();
  const save = useSaveDraft(base.slug);
  const editing = base.state === 'draft';
  const [texts, setTexts] = useState<StaffContentDraftRequest>(() => textsOf(base));
  const [saved, setSaved] = useState<StaffContentDraftRequest>(() => textsOf(base));
  const [errors, setErrors] = useState<Errors>({});
  const [language, setLanguage] = useState<Locale>('fo');
  const dirty = !same(texts, saved);

  const set = (field: Field) => (value: string) => {
    setTexts((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    onEdit();
  };

  function check(): Errors {
    const found: Errors = {};
    for (const field of ['titleFo', 'titleEn'] as const) {
      const value = texts[field].trim();
      if (!value) found[field] = t('editor.required');
      else if (value.length > CONTENT_TITLE_MAX_LENGTH)
        found[field] = t('editor.tooLong', { max: CONTENT_TITLE_MAX_LENGTH });
    }
    for (const field of ['markdownFo', 'markdownEn'] as const) {
      const value = texts[field];
      if (!value.trim()) found[field] = t('editor.required');
      else if (value.length > CONTENT_MARKDOWN_MAX_LENGTH)
        found[field] = t('editor.tooLong', { max: CONTENT_MARKDOWN_MAX_LENGTH });
    }
    return found;
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const found = check();
    setErrors(found);
    const wrong = Object.keys(found) as Field[];
    if (wrong.length > 0) {
      // The markdown shown is one language's: show the one with the problem.
      if (found.markdownFo === undefined && found.markdownEn !== undefined) setLanguage('en');
      if (found.markdownFo !== undefined) setLanguage('fo');
      return;
    }
    const body: StaffContentDraftRequest = {
      ...texts,
      titleFo: texts.titleFo.trim(),
      titleEn: texts.titleEn.trim(),
    };
    save.mutate(
      { id: editing ? base.id : null, texts: body },
      {
        onSuccess: (version) => {
          setSaved(textsOf(version));
          setTexts(textsOf(version));
          onSaved(version);
        },
        onError: (error) => {
          const field = isApiError(error) ? error.details.field : undefined;
          if (field && field in texts) setErrors({ [field as Field]: errorText(error) });
        },
      },
    );
  };

  const markdownField: Field = language === 'fo' ? 'markdownFo' : 'markdownEn';
  const titleField: Field = language === 'fo' ? 'titleFo' : 'titleEn';
  const languageName = t(`languageNames.${language}`, { ns: 'common' });

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5">
      <p className="text-body text-mist-700">
        {editing ? t('editor.editing') : t('editor.basedOn', { version: base.version })}
      </p>

      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label={t('editor.titleFo')}
          value={texts.titleFo}
          lang="fo"
          onChange={(e) => set('titleFo')(e.target.value)}
          onFocus={() => setLanguage('fo')}
          error={errors.titleFo}
          maxLength={CONTENT_TITLE_MAX_LENGTH}
          autoComplete="off"
        />
        <TextField
          label={t('editor.titleEn')}
          value={texts.titleEn}
          lang="en"
          onChange={(e) => set('titleEn')(e.target.value)}
          onFocus={() => setLanguage('en')}
          error={errors.titleEn}
          maxLength={CONTENT_TITLE_MAX_LENGTH}
          autoComplete="off"
        />
      </div>

      <LanguageChoice
        label={t('editor.language')}
        value={language}
        onChange={setLanguage}
        className="w-fit"
        mark={(lang) =>
          errors[lang === 'fo' ? 'markdownFo' : 'markdownEn'] ? (
            <>
              <CircleAlert aria-hidden="true" className="size-3.5 text-danger-600" />
              <span className="sr-only">{t('editor.hasError')}</span>
            </>
          ) : null
        }
      />

      <div className="grid gap-6 lg:grid-cols-2">
        <TextAreaField
          key={markdownField}
          code
          label={t('editor.markdown', { language: languageName })}
          hint={t('editor.markdownHint')}
          value={texts[markdownField]}
          lang={language}
          onChange={(e) => set(markdownField)(e.target.value)}
          error={errors[markdownField]}
          rows={26}
          maxLength={CONTENT_MARKDOWN_MAX_LENGTH}
          spellCheck
        />
        <section aria-labelledby="content-preview-heading" className="flex min-w-0 flex-col gap-2">
          <h3 id="content-preview-heading" className="text-caption font-semibold text-mist-800">
            {t('preview.heading', { language: languageName })}
          </h3>
          <ContentPreview
            title={texts[titleField]}
            markdown={texts[markdownField]}
            language={language}
            updatedAt={base.state === 'draft' || !base.publishedAt ? new Date() : base.publishedAt}
          />
        </section>
      </div>

      {save.isPending ? (
        <p role="status" className="text-caption font-medium text-ocean-800">
          {t('editor.saving')}
        </p>
      ) : null}
      {save.isError && !(isApiError(save.error) && save.error.details.field) ? (
        <Notice tone="danger">{errorText(save.error)}</Notice>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          variant={editing ? 'secondary' : 'primary'}
          pending={save.isPending}
          disabled={editing && !dirty}
          icon={<Save aria-hidden="true" className="size-4" />}
        >
          {editing ? t('editor.save') : t('editor.saveNew')}
        </Button>
        {editing ? (
          <Button
            disabled={dirty || save.isPending}
            aria-describedby={dirty ? 'content-publish-needs-save' : undefined}
            icon={<Upload aria-hidden="true" className="size-4" />}
            onClick={() => onPublish(base)}
          >
            {t('editor.publish', { version: base.version })}
          </Button>
        ) : null}
        {dirty ? (
          <p id="content-publish-needs-save" className="text-caption text-warning-600">
            {editing ? t('editor.unsavedDraft') : t('editor.unsaved')}
          </p>
        ) : null}
      </div>
    </form>
  );
}
