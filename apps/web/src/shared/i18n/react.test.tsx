import { act, render, screen } from '@testing-library/react';
import { useMemo } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider, useTranslation } from './react';
import { Translator } from './translator';

const texts = {
  fo: {
    translation: { title: 'Heilsan', count_one: '{{count}} boð', count_other: '{{count}} boð' },
  },
  en: {
    translation: {
      title: 'Hello',
      count_one: '{{count}} message',
      count_other: '{{count}} messages',
    },
  },
};

function Probe({ onRender = () => {} }: { onRender?: () => void }) {
  const { t, i18n } = useTranslation();
  onRender();
  // Memoised on `t` only: it must be a new function when the language changes.
  const label = useMemo(() => t('count', { count: 2 }), [t]);
  return (
    <p data-testid="probe" lang={i18n.language}>
      {t('title')} · {label}
    </p>
  );
}

describe('useTranslation (ADR 0063)', () => {
  it('renders again with a new `t` when the language changes', async () => {
    const i18n = new Translator({ language: 'fo', fallbackLanguage: 'fo', resources: texts });
    render(
      <I18nProvider i18n={i18n}>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('Heilsan · 2 boð');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByTestId('probe').textContent).toBe('Hello · 2 messages');
    expect(screen.getByTestId('probe').getAttribute('lang')).toBe('en');
  });

  it('renders again when texts arrive after the first render', () => {
    const i18n = new Translator({ language: 'en', fallbackLanguage: 'fo' });
    render(
      <I18nProvider i18n={i18n}>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('probe').textContent).toBe('title · count');
    act(() => i18n.addResourceBundle('en', 'translation', texts.en.translation));
    expect(screen.getByTestId('probe').textContent).toBe('Hello · 2 messages');
  });

  it('does not render again when nothing changed', async () => {
    const i18n = new Translator({ language: 'en', fallbackLanguage: 'fo', resources: texts });
    const onRender = vi.fn();
    render(
      <I18nProvider i18n={i18n}>
        <Probe onRender={onRender} />
      </I18nProvider>,
    );
    const before = onRender.mock.calls.length;
    await act(() => i18n.changeLanguage('en'));
    expect(onRender).toHaveBeenCalledTimes(before);
  });
});
