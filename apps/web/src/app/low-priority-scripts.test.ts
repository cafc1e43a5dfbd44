import { describe, expect, it } from 'vitest';
import { ENTRY_SCRIPT, SCRIPTS_TEMPLATE_ID } from '@alda/contract/first-paint';
import { firstPaintHtml, lowPriorityScripts } from '../../preload-first-screen';

/** index.html as Vite writes it: the entry script, its module preloads, then the stylesheet. */
const VITE_HTML = [
  '<html><head>',
  '<script>firstPaint()</script>',
  '<script type="module" crossorigin src="/assets/index.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/shell.js">',
  '<link rel="stylesheet" crossorigin href="/assets/shell.css">',
  '<link rel="icon" href="/favicon.svg" />',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

const ENTRY_LOW =
  '<script type="module" crossorigin src="/assets/index.js" fetchpriority="low"></script>';
const SHELL_LOW =
  '<link rel="modulepreload" crossorigin href="/assets/shell.js" fetchpriority="low">';

// Issue 45: the first paint (prerendered login, static splash) needs no script, so the entry
// and its preloads are fetched at low priority and the stylesheet has the link to itself.
describe('lowPriorityScripts (issue 45)', () => {
  it('marks the entry script and every module preload, and nothing else', () => {
    const out = lowPriorityScripts(VITE_HTML);
    expect(out).toContain(ENTRY_LOW);
    expect(out).toContain(SHELL_LOW);
    expect(out).toContain('<script>firstPaint()</script>');
    expect(out).toContain('<link rel="stylesheet" crossorigin href="/assets/shell.css">');
    expect(out).toContain('<link rel="icon" href="/favicon.svg" />');
  });

  it('leaves a priority set by hand as it is', () => {
    const tag = '<link rel="modulepreload" href="/a.js" fetchpriority="high">';
    expect(lowPriorityScripts(tag)).toBe(tag);
  });
});

// Issues 13 and 45: the page as the build writes it. The browser fetches none of the app's
// scripts while it parses: the inline entry script adds them from an inert template (after a
// guest's first paint). The template and that script stand before the stylesheet, which an inline
// script after it would wait for; the stylesheet still comes before the entry's own script.
describe('index.html in the first paint order (issues 13, 45)', () => {
  // The inline first-paint script is not there yet when this runs: Vite adds it to the top of
  // <head> afterwards (prerender-plugin.ts).
  const out = firstPaintHtml(VITE_HTML.replace('<script>firstPaint()</script>\n', ''));

  it('moves the entry script and the preloads, at low priority, into the template the entry script reads', () => {
    const template = out.match(new RegExp(`<template id="${SCRIPTS_TEMPLATE_ID}">(.*)</template>`));
    expect(template?.[1]).toBe(SHELL_LOW + ENTRY_LOW);
    expect(out.match(/<script type="module"/g)).toHaveLength(1);
    expect(out.match(/rel="modulepreload"/g)).toHaveLength(1);
  });

  it('puts the template and the inline entry script in <head>, before the stylesheet', () => {
    expect(out).toContain(
      `</template><script>${ENTRY_SCRIPT}</script>\n<link rel="stylesheet" crossorigin href="/assets/shell.css">`,
    );
    expect(out.indexOf('<template')).toBeLessThan(out.indexOf('</head>'));
    expect(out.indexOf('<head>')).toBeLessThan(out.indexOf('<template'));
  });
});
