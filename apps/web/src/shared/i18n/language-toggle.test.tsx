import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { LOCALE_KEY } from '@alda/contract/constants';
import { createI18n, loadLocale } from './i18n';
import { LanguageToggle } from './language-toggle';

describe('the language toggle with the texts loaded per language (issue 13)', () => {
  it('shows the choice at once, and switches the texts when they have loaded', async () => {
    const i18n = createI18n('fo');
    await loadLocale('fo', i18n);
    render(
      <I18nextProvider i18n={i18n}>
        <LanguageToggle />
      </I18nextProvider>,
    );
    expect(screen.getByRole('radiogroup', { name: 'Mál' })).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('radio', { name: 'English' }));
    // Chosen at once (English has not loaded yet) …
    expect(screen.getByRole('radio', { name: 'English' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    // … and the texts follow once it has.
    await waitFor(() => expect(screen.getByRole('radiogroup', { name: 'Language' })).toBeTruthy());
    expect(i18n.language).toBe('en');
    expect(window.localStorage.getItem(`CapacitorStorage.${LOCALE_KEY}`)).toBe('en');
  });
});
