import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageText } from './message-text';

describe('message text (issue 46 "Text is never rendered as HTML. Links are made clickable safely")', () => {
  it('issue 46: shows an http(s) address as a link that opens without the console as opener', () => {
    const { container } = render(<MessageText text="See https://alda.fo/help." />);
    const link = container.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://alda.fo/help');
    expect(link?.getAttribute('rel')).toContain('noopener');
    expect(container.textContent).toBe('See https://alda.fo/help.');
  });

  it('issue 46: renders `<b>x</b>` as text and keeps line breaks', () => {
    const { container } = render(<MessageText text={'<b>x</b>\n<img src=x onerror=alert(1)>'} />);
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('<b>x</b>\n<img src=x onerror=alert(1)>');
    expect(container.querySelector('p')?.className).toContain('whitespace-pre-wrap');
  });
});
