import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { PROMPT_CLEAR_DELAY_MS } from '@alda/contract/constants';
import { createTestContext, Providers } from '@/test/render';
import { ModalHost } from './modal-host';
import { createModalStore, MODAL_EXIT_MS } from './modal-store';
import { dialogClosed } from '@/test/dialogs';

function renderModals({ exitMs }: { exitMs?: number } = {}) {
  const ctx = {
    ...createTestContext(),
    ...(exitMs ? { modals: createModalStore({ exitMs }) } : {}),
  };
  render(
    <Providers ctx={ctx}>
      <>
        <button type="button">outside</button>
        <ModalHost />
      </>
    </Providers>,
  );
  const user = userEvent.setup({
    // jsdom has no stylesheet, so the backdrop's pointer-events-auto class does not apply here.
    pointerEventsCheck: PointerEventsCheckLevel.Never,
  });
  return { modals: ctx.modals, user };
}

/** Opens a modal from outside React, as the status check does. */
function open<T>(show: () => Promise<T>): Promise<T> {
  let promise!: Promise<T>;
  act(() => {
    promise = show();
  });
  return promise;
}

const dialog = () => screen.getByRole('dialog');
const backdrop = () => document.querySelector<HTMLElement>('[data-modal-backdrop]')!;
const noOpenDialog = dialogClosed;

afterEach(() => {
  vi.useRealTimers();
});

describe('alert modal (SPEC §2)', () => {
  it('shows a title, a message and one button, and resolves when it is pressed (SPEC §2)', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.alert({ title: 'Goymt', message: 'Broytingin er goymd.' }));
    expect(dialog().textContent).toContain('Goymt');
    expect(dialog().textContent).toContain('Broytingin er goymd.');
    expect(
      screen.getAllByRole('button', { name: /./ }).filter((b) => dialog().contains(b)),
    ).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    await expect(result).resolves.toBeUndefined();
    await noOpenDialog();
  });

  it('closes a dismissable alert on a click outside it', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.alert({ title: 'Kunning' }));
    await user.click(backdrop());
    await expect(result).resolves.toBeUndefined();
  });

  it('closes a dismissable alert with Escape (SPEC §2 "Escape closes modals")', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.alert({ title: 'Kunning' }));
    await user.keyboard('{Escape}');
    await expect(result).resolves.toBeUndefined();
    await noOpenDialog();
  });

  it('keeps a non-dismissable alert open on Escape and outside clicks; only its button closes it (SPEC §2)', async () => {
    const { modals, user } = renderModals();
    const onConfirm = vi.fn();
    const result = open(() =>
      modals.alert({ title: 'Dagfør appina', dismissable: false, onConfirm }),
    );
    await user.keyboard('{Escape}');
    expect(dialog()).toBeTruthy();
    await user.click(backdrop());
    expect(dialog()).toBeTruthy();
    expect(modals.handleBack()).toBe('blocked');
    expect(dialog()).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await expect(result).resolves.toBeUndefined();
  });

  it('can stay open after its button (a forced upgrade) and still run the action each time', async () => {
    const { modals, user } = renderModals();
    const onConfirm = vi.fn();
    open(() =>
      modals.alert({
        title: 'Dagfør appina',
        dismissable: false,
        closeOnConfirm: false,
        onConfirm,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    expect(onConfirm).toHaveBeenCalledTimes(2);
    expect(dialog()).toBeTruthy();
  });
});

describe('info modal (SPEC §2)', () => {
  it('shows information with a close button', async () => {
    const { modals, user } = renderModals();
    const result = open(() =>
      modals.info({ title: 'Viðlíkahald', message: 'Í nátt frá 2 til 4.' }),
    );
    expect(dialog().getAttribute('data-modal-kind')).toBe('info');
    expect(screen.getByRole('dialog', { name: 'Viðlíkahald' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Lat aftur' }));
    await expect(result).resolves.toBeUndefined();
  });
});

describe('confirm modal (SPEC §2)', () => {
  it("has the default labels 'Í lagi' and 'Angra' and resolves true on confirm (SPEC §2)", async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.confirm({ title: 'Ert tú viss/ur?' }));
    expect(screen.getByRole('button', { name: 'Angra' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    await expect(result).resolves.toBe(true);
  });

  it("resolves false on 'Angra' (SPEC §2)", async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.confirm({ title: 'Ert tú viss/ur?' }));
    await user.click(screen.getByRole('button', { name: 'Angra' }));
    await expect(result).resolves.toBe(false);
  });

  it('uses the labels it is given', async () => {
    const { modals } = renderModals();
    open(() =>
      modals.confirm({
        title: 'Dagfør appina',
        confirmLabel: 'Dagfør appina',
        cancelLabel: 'Bíða við dagføring',
      }),
    );
    expect(screen.getByRole('button', { name: 'Dagfør appina' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bíða við dagføring' })).toBeTruthy();
  });

  it('resolves false when Escape closes it (SPEC §2)', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.confirm({ title: 'Ert tú viss/ur?' }));
    await user.keyboard('{Escape}');
    await expect(result).resolves.toBe(false);
  });

  it('traps focus inside the modal (Radix Dialog)', async () => {
    const { modals, user } = renderModals();
    open(() => modals.confirm({ title: 'Ert tú viss/ur?' }));
    await waitFor(() => expect(dialog().contains(document.activeElement)).toBe(true));
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(dialog().contains(document.activeElement)).toBe(true);
    }
  });

  it('returns focus to where it was when it closes', async () => {
    const { modals, user } = renderModals();
    const outside = screen.getByRole('button', { name: 'outside' });
    outside.focus();
    open(() => modals.confirm({ title: 'Ert tú viss/ur?' }));
    await user.click(screen.getByRole('button', { name: 'Angra' }));
    await waitFor(() => expect(document.activeElement).toBe(outside));
  });
});

describe('prompt modal (SPEC §2)', () => {
  it('asks for text with a label and resolves it on confirm (SPEC §2)', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.prompt({ title: 'Nýtt navn', label: 'Navn' }));
    await user.type(screen.getByLabelText('Navn'), 'Sigrid');
    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    await expect(result).resolves.toBe('Sigrid');
  });

  it('submits with Enter', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.prompt({ title: 'Nýtt navn', label: 'Navn' }));
    await user.type(screen.getByLabelText('Navn'), 'Óli{Enter}');
    await expect(result).resolves.toBe('Óli');
  });

  it('resolves null on cancel (SPEC §2)', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.prompt({ title: 'Nýtt navn', label: 'Navn' }));
    await user.type(screen.getByLabelText('Navn'), 'x');
    await user.click(screen.getByRole('button', { name: 'Angra' }));
    await expect(result).resolves.toBeNull();
  });

  it('clears the input 250 ms after closing, not before (SPEC §2, §9)', async () => {
    const { modals, user } = renderModals();
    const result = open(() => modals.prompt({ title: 'Nýtt navn', label: 'Navn' }));
    const input = screen.getByLabelText<HTMLInputElement>('Navn');
    await user.type(input, 'Sigrid');
    // From here on the clock is ours (fireEvent, not user-event: its async wrapper needs real timers).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(screen.getByRole('button', { name: 'Angra' }));
    await expect(result).resolves.toBeNull();
    // While the modal animates out, the text stays (no flash of an empty field) …
    act(() => vi.advanceTimersByTime(PROMPT_CLEAR_DELAY_MS - 1));
    expect(input.value).toBe('Sigrid');
    // … and 250 ms after closing it is cleared.
    act(() => vi.advanceTimersByTime(1));
    expect(input.value).toBe('');
    act(() => vi.advanceTimersByTime(MODAL_EXIT_MS - PROMPT_CLEAR_DELAY_MS));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('a closing modal gives the page back at once (ADR 0070, WCAG 4.1.2)', () => {
  /** Hidden from assistive technology or out of reach: what the user cannot get to. */
  const unreachable = (el: Element) => el.closest('[aria-hidden="true"], [inert]') !== null;

  it('on a slow phone (a 60 s exit animation): the page is back and focused the moment closing starts, and the closing modal is out of reach', async () => {
    const { modals, user } = renderModals({ exitMs: 60_000 });
    const outside = screen.getByRole('button', { name: 'outside' });
    outside.focus();
    const result = open(() => modals.confirm({ title: 'Send umbønina?' }));
    // Open: the page behind is hidden and the focus is in the modal.
    await waitFor(() => expect(unreachable(outside)).toBe(true));
    expect(dialog().contains(document.activeElement)).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Í lagi' }));
    await expect(result).resolves.toBe(true);
    // Still animating out (mounted for a minute) …
    const closing = document.querySelector('[role="dialog"][data-state="closed"]')!;
    expect(closing).not.toBeNull();
    expect(closing.getAttribute('data-state')).toBe('closed');
    // … yet nothing focusable is hidden, the focus is back, and the closing modal takes no focus.
    expect(unreachable(outside)).toBe(false);
    expect(
      Array.from(document.querySelectorAll('[aria-hidden="true"] button')).filter(
        (button) => !button.closest('[inert]'),
      ),
    ).toEqual([]);
    expect(document.activeElement).toBe(outside);
    expect(unreachable(closing)).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a modal over another: closing the top one gives the one under it back, not the page', async () => {
    const { modals, user } = renderModals({ exitMs: 60_000 });
    const outside = screen.getByRole('button', { name: 'outside' });
    const under = open(() => modals.confirm({ title: 'Undir', confirmLabel: 'Undir ja' }));
    const top = open(() => modals.confirm({ title: 'Omanfyri', confirmLabel: 'Omanfyri ja' }));
    await user.click(screen.getByRole('button', { name: 'Omanfyri ja' }));
    await expect(top).resolves.toBe(true);
    // The lower modal was not dismissed by the click in the top one; it is open and reachable.
    expect(screen.getByRole('dialog', { name: 'Undir' })).toBeTruthy();
    expect(unreachable(screen.getByRole('button', { name: 'Undir ja' }))).toBe(false);
    expect(unreachable(outside)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Undir ja' }));
    await expect(under).resolves.toBe(true);
    expect(unreachable(outside)).toBe(false);
  });
});

describe('modal stacking and the back button (SPEC §2)', () => {
  it('closes the top dismissable modal on back and reports when nothing is open', async () => {
    const { modals } = renderModals();
    expect(modals.handleBack()).toBe('none');
    const result = open(() => modals.confirm({ title: 'Ert tú viss/ur?' }));
    let back!: string;
    act(() => {
      back = modals.handleBack();
    });
    expect(back).toBe('closed');
    await expect(result).resolves.toBe(false);
  });

  it('closeAll cancels every open modal (logout)', async () => {
    const { modals } = renderModals();
    const a = open(() => modals.confirm({ title: 'A' }));
    const b = open(() => modals.prompt({ title: 'B', label: 'B' }));
    act(() => modals.closeAll());
    await expect(a).resolves.toBe(false);
    await expect(b).resolves.toBeNull();
  });
});
