import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageText, splitLinks } from './message-text';

describe('message text (issue 46 "Text is never rendered as HTML. Links are made clickable safely")', () => {
  it('issue 46: links http and https addresses, leaving the punctuation after them as text', () => {
    expect(splitLinks('See https://alda.fo/help. Or (http://example.com/a_(b)), ok?')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://alda.fo/help', href: 'https://alda.fo/help' },
      { kind: 'text', text: '. Or (' },
      { kind: 'link', text: 'http://example.com/a_(b)', href: 'http://example.com/a_(b)' },
      { kind: 'text', text: '), ok?' },
    ]);
  });

  it('issue 46: never links another scheme, and joined the pieces are the text as written', () => {
    const text = 'javascript:alert(1) data:text/html,<b>x</b> file:///etc/passwd ftp://x.fo';
    expect(splitLinks(text)).toEqual([{ kind: 'text', text }]);
    const mixed = 'a https://x.fo b\nhttps://y.fo';
    expect(
      splitLinks(mixed)
        .map((piece) => piece.text)
        .join(''),
    ).toBe(mixed);
  });

  it('issue 46: renders `<b>x</b>` as text and keeps line breaks', () => {
    const { container } = render(<MessageText text={'<b>x</b>\n<img src=x onerror=alert(1)>'} />);
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('<b>x</b>\n<img src=x onerror=alert(1)>');
    expect(container.querySelector('p')?.className).toContain('whitespace-pre-wrap');
  });
});
