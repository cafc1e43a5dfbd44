import { describe, expect, it } from 'vitest';
import { ENTRY_SCRIPT, SCRIPTS_TEMPLATE_ID } from '@alda/contract/first-paint';
import { lowPriorityScripts, scriptsInTemplate } from '../../preload-first-screen';

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

// Issue 45: the browser fetches none of the app's scripts while it parses; the inline entry
// script adds them (after a guest's first paint).
describe('scriptsInTemplate (issue 45)', () => {
  const html = [
    '<html><head>',
    '<script>firstPaint()</script>',
    '<link rel="stylesheet" crossorigin href="/assets/shell.css">',
    '<script type="module" crossorigin src="/assets/index.js" fetchpriority="low"></script>',
    '<link rel="modulepreload" crossorigin href="/assets/shell.js" fetchpriority="low">',
    '</head><body><div id="root"></div></body></html>',
  ].join('\n');

  it('moves the entry script and the preloads into an inert template, followed by the entry script', () => {
    const out = scriptsInTemplate(html);
    const template = out.match(new RegExp(`<template id="${SCRIPTS_TEMPLATE_ID}">(.*)</template>`));
    expect(template?.[1]).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/shell.js" fetchpriority="low">' +
        '<script type="module" crossorigin src="/assets/index.js" fetchpriority="low"></script>',
    );
    expect(out.match(/<script type="module"/g)).toHaveLength(1);
    expect(out.match(/rel="modulepreload"/g)).toHaveLength(1);
    expect(out).toContain(`</template><script>${ENTRY_SCRIPT}</script>`);
    expect(out.indexOf('</template>')).toBeLessThan(out.indexOf('</body>'));
    expect(out.indexOf('<div id="root">')).toBeLessThan(out.indexOf('<template'));
    // The inline first-paint script and the stylesheet stay where they were.
    expect(out).toContain('<script>firstPaint()</script>\n<link rel="stylesheet"');
  });
});
