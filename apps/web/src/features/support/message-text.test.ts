import { describe, expect, it } from 'vitest';
import { photoProblem, photoTypeOf } from './photos';
import { safeHref, splitLinks } from './message-text';

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

  it('keeps other schemes and markup as text', () => {
    const body = 'javascript:alert(1) data:text/html,<b>x</b> <a href="https://x.fo">y</a>';
    const parts = splitLinks(body);
    expect(parts.map((p) => p.text).join('')).toBe(body);
    expect(parts.filter((p) => p.kind === 'link')).toEqual([
      { kind: 'link', text: 'https://x.fo', href: 'https://x.fo/' },
    ]);
  });

  it('refuses what does not parse as an http(s) URL', () => {
    expect(safeHref('https://')).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('https://alda.fo/a b')).toBe('https://alda.fo/a%20b');
    expect(splitLinks('https://')).toEqual([{ kind: 'text', text: 'https://' }]);
  });
});

describe('photos a customer may send (issue 46: JPEG, PNG, HEIC, ≤ 5 MB)', () => {
  it('takes the file’s own type, or the name’s when the browser gave none', () => {
    expect(photoTypeOf({ type: 'image/png', name: 'x' })).toBe('image/png');
    expect(photoTypeOf({ type: '', name: 'IMG_0001.HEIC' })).toBe('image/heic');
    expect(photoTypeOf({ type: 'application/pdf', name: 'a.jpg' })).toBeNull();
    expect(photoTypeOf({ type: 'image/gif', name: 'a.gif' })).toBeNull();
  });

  it('refuses a photo over 5 MB and accepts one of exactly 5 MB', () => {
    const mb5 = 5 * 1024 * 1024;
    expect(photoProblem({ type: 'image/jpeg', name: 'a.jpg', size: mb5 })).toBeNull();
    expect(photoProblem({ type: 'image/jpeg', name: 'a.jpg', size: mb5 + 1 })).toBe('size');
    expect(photoProblem({ type: 'text/plain', name: 'a.txt', size: 1 })).toBe('type');
  });
});
