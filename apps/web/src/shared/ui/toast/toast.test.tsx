import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TOAST_DURATION_MS } from '@alda/contract/constants';
import { createTestContext, Providers } from '@/test/render';
import { ToastViewport } from './toast-viewport';

function renderToasts(aboveFooter = true) {
  const ctx = createTestContext();
  render(
    <Providers ctx={ctx}>
      <ToastViewport aboveFooter={aboveFooter} />
    </Providers>,
  );
  return ctx.toasts;
}

afterEach(() => vi.useRealTimers());

describe('toasts (SPEC §2)', () => {
  it('shows info, warning and error toasts; errors are announced as alerts (SPEC §2)', () => {
    const toasts = renderToasts();
    act(() => {
      toasts.show({ type: 'info', message: 'Goymt' });
      toasts.show({ type: 'warning', message: 'Lítið data eftir' });
      toasts.show({ type: 'error', message: 'Ein villa hendi.' });
    });
    expect(screen.getAllByRole('status').map((el) => el.getAttribute('data-toast-type'))).toEqual([
      'info',
      'warning',
    ]);
    expect(screen.getByRole('alert').textContent).toContain('Ein villa hendi.');
  });

  it('disappears after 3 seconds (SPEC §2, §9)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const toasts = renderToasts();
    act(() => void toasts.show({ type: 'info', message: 'Goymt' }));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1));
    expect(screen.queryByText('Goymt')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText('Goymt')).toBeNull();
  });

  it('can be dismissed (SPEC §2)', async () => {
    const toasts = renderToasts();
    act(() => void toasts.show({ type: 'error', message: 'Ein villa hendi.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Lat fráboðanina aftur' }));
    expect(screen.queryByText('Ein villa hendi.')).toBeNull();
  });

  it('keeps a persistent toast until it is dismissed', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const toasts = renderToasts();
    act(
      () => void toasts.show({ id: 'offline', type: 'error', message: 'offline', duration: null }),
    );
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('alert').textContent).toContain('offline');
  });

  it('replaces a toast shown again with the same id instead of stacking it', () => {
    const toasts = renderToasts();
    act(() => {
      toasts.show({ id: 'x', type: 'info', message: 'one' });
      toasts.show({ id: 'x', type: 'info', message: 'two' });
    });
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain('two');
  });

  it('sits above the footer when the screen has one, else above the safe area (SPEC §2)', () => {
    const toasts = renderToasts(true);
    act(() => void toasts.show({ type: 'info', message: 'Goymt' }));
    const region = screen.getByRole('region', { name: 'Fráboðanir' });
    expect(region.className).toContain('bottom-above-footer');
  });

  it('uses the bottom safe area without a footer', () => {
    renderToasts(false);
    expect(screen.getByRole('region', { name: 'Fráboðanir' }).className).toContain('bottom-safe');
  });
});
