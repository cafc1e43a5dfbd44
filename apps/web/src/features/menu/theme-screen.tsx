import { useTranslation } from 'react-i18next';
import { THEME_CHOICES } from '@/shared/theme/theme';
import { useThemeChoice } from '@/shared/theme/theme-store';
import { ChoiceList } from '@/shared/ui/choice-list';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { ROUTES } from '@/shared/config/paths';

/** /menu/utsjond: light, dark or as the phone is set; kept on the device (ADR 0067). */
export function ThemeScreen() {
  const { t } = useTranslation();
  const [choice, choose] = useThemeChoice();

  return (
    <main className="pb-footer min-h-dvh bg-mist-50">
      <ScreenHeader title={t('appearance.title')} back={ROUTES.menu} />
      <ScreenBody>
        <p id="theme-lead" className="text-body text-mist-600">
          {t('appearance.lead')}
        </p>
        <ChoiceList
          labelledBy="theme-lead"
          choices={THEME_CHOICES.map((value) => ({ value, label: t(`appearance.${value}`) }))}
          chosen={choice}
          onChoose={(value) => void choose(value)}
        />
      </ScreenBody>
    </main>
  );
}
