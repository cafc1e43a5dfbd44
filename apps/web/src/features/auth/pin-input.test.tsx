import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { PinInput } from './pin-input';

/** A refused character never shows: the field keeps its owner's value. */
describe('the PIN field keeps its owner’s value', () => {
  it('the PIN field refuses letters and keeps six digits (SPEC §5 PIN)', async () => {
    function Pin() {
      const [value, setValue] = useState('');
      return <PinInput label="Kota" value={value} onChange={setValue} />;
    }
    render(<Pin />);
    const user = userEvent.setup();
    const field = screen.getByLabelText('Kota') as HTMLInputElement;
    await user.type(field, '12a');
    expect(field.value).toBe('12');
    await user.type(field, '34x5678');
    expect(field.value).toBe('123456');
  });
});
