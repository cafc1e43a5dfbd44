import { describe, expect, it } from 'vitest';
import { photoProblem, photoTypeOf } from './photos';

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
