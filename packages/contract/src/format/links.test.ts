import { describe, expect, it } from 'vitest';
import { safeHref, splitLinks } from './links';

describe('links in a support message: only http(s) addresses become links (issue 46)', () => {
  it('links an address in a sentence, leaving the sentence’s punctuation outside the link', () => {
    expect(splitLinks('Sí https://alda.fo/hjalp. Ella (http://alda.fo/a?b=1), takk!')).toEqual([
      { kind: 'text', text: 'Sí ' },
      { kind: 'link', text: 'https://alda.fo/hjalp', href: 'https://alda.fo/hjalp' },
      { kind: 'text', text: '. Ella (' },
      { kind: 'link', text: 'http://alda.fo/a?b=1', href: 'http://alda.fo/a?b=1' },
      { kind: 'text', text: '), takk!' },
    ]);
  });

  it('keeps a closing bracket that belongs to the address', () => {
    expect(splitLinks('See (http://example.com/a_(b)), ok?')).toEqual([
      { kind: 'text', text: 'See (' },
      { kind: 'link', text: 'http://example.com/a_(b)', href: 'http://example.com/a_(b)' },
      { kind: 'text', text: '), ok?' },
    ]);
  });

  it('keeps other schemes, bare domains, e-mail addresses and markup as text, the text as written', () => {
    const text =
      'javascript:alert(1) data:text/html,<b>x</b> file:///etc/passwd ftp://x.fo alda.fo a@b.fo mailto:a@b.fo';
    expect(splitLinks(text)).toEqual([{ kind: 'text', text }]);
    const mixed = 'a https://x.fo b\n<a href="https://y.fo">y</a>';
    const parts = splitLinks(mixed);
    expect(parts.map((p) => p.text).join('')).toBe(mixed);
    expect(parts.filter((p) => p.kind === 'link').map((p) => p.text)).toEqual([
      'https://x.fo',
      'https://y.fo',
    ]);
  });

  it('refuses what does not parse as an http(s) URL', () => {
    expect(safeHref('https://')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(splitLinks('https://')).toEqual([{ kind: 'text', text: 'https://' }]);
  });
});
