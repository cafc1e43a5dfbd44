import { describe, expect, it } from 'vitest';
import { lowPriorityScripts } from '../../preload-first-screen';

// Issue 45: the first paint (prerendered login, static splash) needs no script, so the entry
// and its preloads are fetched at low priority and the stylesheet has the link to itself.
describe('lowPriorityScripts (issue 45)', () => {
  const html = [
    '<script>inline()</script>',
    '<link rel="stylesheet" crossorigin href="/assets/shell.css">',
    '<script type="module" crossorigin src="/assets/index.js"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/shell.js">',
    '<link rel="icon" href="/favicon.svg" />',
  ].join('\n');

  it('marks the entry script and every module preload, and nothing else', () => {
    const out = lowPriorityScripts(html);
    expect(out).toContain(
      '<script type="module" crossorigin src="/assets/index.js" fetchpriority="low"></script>',
    );
    expect(out).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/shell.js" fetchpriority="low">',
    );
    expect(out).toContain('<script>inline()</script>');
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/shell.css">');
    expect(out).toContain('<link rel="icon" href="/favicon.svg" />');
  });

  it('leaves a priority set by hand as it is', () => {
    const tag = '<link rel="modulepreload" href="/a.js" fetchpriority="high">';
    expect(lowPriorityScripts(tag)).toBe(tag);
  });
});
