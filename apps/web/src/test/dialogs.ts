import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Waits until no dialog is open and the page behind it is back in the accessibility tree: the
 * modal host hides everything else (`aria-hidden`, marked `data-aria-hidden`) while a dialog is
 * open and gives it back when closing starts (ADR 0070); a closing dialog is inert and hidden.
 */
export function dialogClosed(): Promise<void> {
  return waitFor(() => {
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('[data-aria-hidden]')).toBeNull();
  });
}
