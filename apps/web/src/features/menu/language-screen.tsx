import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@alda/contract/locale';
import { useLocaleChoice } from '@/shared/i18n/use-locale';
import { useAppServices, useSession } from '@/shared/services/app-services';
import { ChoiceList } from '@/shared/ui/choice-list';
import { ScreenBody, ScreenHeader } from '@/shared/ui/screen';
import { useToast } from '@/shared/ui/toast/toast-context';
import { ROUTES } from '@/shared/config/paths';

/**
 * /menu/mal: Føroyskt or English. The choice is saved on the device (it wins there, SPEC §1) and
 * sent with every request; signed in, it is saved on the user too (issue 33 §3), so e-mails, SMS
 * and receipts follow it and a new device starts in it. A failed save keeps the device's choice
 * and says so.
 */
export function LanguageScreen() {
  const { t, i18n } = useTranslation();
  const [locale, setLocale] = useLocaleChoice();
  const { http, session } = useAppServices();
  const user = useSession().user;
  const toast = useToast();

  const choose = async (value: Locale) => {
    await setLocale(value);
    if (!user || user.locale === value) return;
    // The user's schema (and zod) download only for this save, not with the screen.
    const { updateUser } = await import('@/shared/auth/update-user');
    const saved = await updateUser(http, { locale: value });
    if (saved.ok) session.setUser(saved.data);
    // In the language just chosen (`t` of this render still speaks the old one).
    else toast.show({ type: 'error', message: i18n.t('menu.languageNotSaved') });
  };

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
          onChoose={(value) => void choose(value)}
        />
        {user && <p className="text-caption text-mist-600">{t('menu.languageAccount')}</p>}
      </ScreenBody>
    </main>
  );
}
