import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '@/shared/i18n/i18n';
import { resources } from '@/shared/i18n/resources';
import { LazyModalHost } from './lazy-modal-host';
import { ModalContext } from './modal-context';
import { createModalStore } from './modal-store';

describe('the modal host, a chunk of its own (issue 13)', () => {
  it('shows a modal opened before its chunk has loaded, and answers it', async () => {
    const store = createModalStore();
    render(
      <I18nextProvider i18n={createI18n('en', resources)}>
        <ModalContext.Provider value={store}>
          <LazyModalHost />
        </ModalContext.Provider>
      </I18nextProvider>,
    );
    const answer = store.confirm({ title: 'Sure?', message: 'Really' });
    const dialog = await screen.findByRole('dialog', { name: 'Sure?' });
    expect(dialog.textContent).toContain('Really');
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }));
    expect(await answer).toBe(true);
  });
});
