import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '@/shared/i18n/i18n';
import { FIRST_PAINT_WAIT_MS, firstScreenCommitted, holdUntilFirstPaint } from '../first-paint';
import { resources } from '@/shared/i18n/resources';
import { LazyModalHost } from './lazy-modal-host';
import { ModalContext } from './modal-context';
import { createModalStore } from './modal-store';

function renderHost(store = createModalStore()) {
  render(
    <I18nextProvider i18n={createI18n('en', resources)}>
      <ModalContext.Provider value={store}>
        <LazyModalHost />
      </ModalContext.Provider>
    </I18nextProvider>,
  );
  return store;
}

afterEach(() => {
  // Unmounted before the idle API is taken away: the host cancels its idle task as it goes.
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the modal host, a chunk of its own (issue 13)', () => {
  it("at the app's start, is asked for once the first screen is on the display and the browser is idle (issue 45)", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const idle = vi.fn((_task: IdleRequestCallback) => 1);
    vi.stubGlobal('requestIdleCallback', idle);
    vi.stubGlobal('cancelIdleCallback', vi.fn());
    holdUntilFirstPaint();
    renderHost();
    await act(() => vi.advanceTimersByTimeAsync(0));
    // The first screen is committed but not yet reported painted: nothing is scheduled.
    firstScreenCommitted();
    await act(() => vi.advanceTimersByTimeAsync(FIRST_PAINT_WAIT_MS - 1));
    expect(idle).not.toHaveBeenCalled();
    // No paint reported (jsdom): the gate opens after its longest wait, and the host goes on in a
    // task of its own (a timer's 1 ms); its chunk then waits for the browser to be idle.
    await act(() => vi.advanceTimersByTimeAsync(2));
    expect(idle).toHaveBeenCalledTimes(1);
  });

  it('shows a modal opened before its chunk has loaded, and answers it', async () => {
    const store = renderHost();
    const answer = store.confirm({ title: 'Sure?', message: 'Really' });
    const dialog = await screen.findByRole('dialog', { name: 'Sure?' });
    expect(dialog.textContent).toContain('Really');
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }));
    expect(await answer).toBe(true);
  });
});
