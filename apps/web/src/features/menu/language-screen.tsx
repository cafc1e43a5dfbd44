import { useTranslation } from 'react-i18next';
import { LOCALES } from '@alda/contract/locale';
import { useLocaleChoice } from '@/shared/i18n/use-locale';
import { ChoiceList } from '@/shared/ui/choice-list';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { ROUTES } from '@/shared/config/paths';

/** /menu/mal: Føroyskt or English; the choice is saved on the device and sent with every request. */
export function LanguageScreen() {
  const { t } = useTranslation();
  const [locale, setLocale] = useLocaleChoice();

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('language.title')} back={ROUTES.menu} />
      <ScreenBody>
        <p id="language-lead" className="text-body text-mist-600">
          {t('language.lead')}
        </p>
        <ChoiceList
          labelledBy="language-lead"
          choices={LOCALES.map((value) => ({ value, label: t(`language.${value}`), lang: value }))}
          chosen={locale}
          onChoose={(value) => void setLocale(value)}
        />
      </ScreenBody>
    </main>
  );
}
