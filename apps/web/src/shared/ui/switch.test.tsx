import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Switch } from './switch';

/**
 * Controlled inputs show their owner's value, also when the owner refuses or defers a change
 * (a confirm first): a behaviour the EU package and phone-book switches rely on.
 */
describe('a controlled switch keeps its owner’s value', () => {
  function ConfirmFirst({ accept }: { accept: boolean }) {
    const [on, setOn] = useState(false);
    return (
      <Switch
        label="EU"
        checked={on}
        onChange={(event) => {
          if (accept) setOn(event.currentTarget.checked);
        }}
      />
    );
  }

  it('a switch whose change is not (yet) accepted stays as it was', async () => {
    render(<ConfirmFirst accept={false} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('switch', { name: 'EU' }));
    expect((screen.getByRole('switch', { name: 'EU' }) as HTMLInputElement).checked).toBe(false);
  });

  it('a switch whose change is accepted turns on, and off again', async () => {
    render(<ConfirmFirst accept />);
    const user = userEvent.setup();
    const toggle = screen.getByRole('switch', { name: 'EU' }) as HTMLInputElement;
    await user.click(toggle);
    expect(toggle.checked).toBe(true);
    await user.click(toggle);
    expect(toggle.checked).toBe(false);
  });
});
