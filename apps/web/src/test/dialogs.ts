import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Waits until no dialog is open and the page behind it is back in the accessibility tree: Radix
 * hides everything else (`aria-hidden`, marked `data-aria-hidden`) while a dialog is open and
 * undoes it in an effect when the dialog unmounts — on Preact's runtime (ADR 0062) a frame after
 * the dialog is gone, as in a browser. A user cannot reach the page before that either.
 */
export function dialogClosed(): Promise<void> {
  return waitFor(() => {
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('[data-aria-hidden]')).toBeNull();
  });
}
