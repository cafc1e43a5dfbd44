import { readFileSync } from 'node:fs';
import path from 'node:path';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppMarkdown } from './app-markdown';

/*
 * The preview renders markdown exactly as the customer's app does
 * (apps/web/src/features/content/content-screen.tsx): these fail when the app's rendering or its
 * `.prose-alda` rules change and this copy does not.
 */

const here = import.meta.dirname;
const webScreen = readFileSync(
  path.join(here, '../../../../web/src/features/content/content-screen.tsx'),
  'utf8',
);
const ownComponent = readFileSync(path.join(here, 'app-markdown.tsx'), 'utf8');

/** The text from `start` to the first `end` after it. */
function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`"${start}" not found`);
  return text.slice(from, text.indexOf(end, from) + end.length);
}

describe('markdown as the app renders it', () => {
  it('uses the app’s react-markdown call: no plugins, raw HTML skipped, the same heading shift', () => {
    expect(webScreen).toContain('<Markdown skipHtml components={SHIFTED_HEADINGS}>');
    expect(ownComponent).toContain('<Markdown skipHtml components={SHIFTED_HEADINGS}>');
    expect(webScreen).not.toMatch(/remark|rehype/);
    const headings = (source: string) =>
      between(source, 'const SHIFTED_HEADINGS: Components = {', '};');
    expect(headings(ownComponent)).toBe(headings(webScreen));
  });

  it('has the app’s .prose-alda rules', () => {
    const rules = (file: string) =>
      between(
        readFileSync(file, 'utf8'),
        '/* Markdown of the terms and privacy texts. */',
        '\n}\n',
      );
    expect(rules(path.join(here, 'prose-alda.css'))).toBe(
      rules(path.join(here, '../../../../web/src/styles.css')),
    );
  });

  it('shifts headings one level down, keeps lists and links, and shows no HTML', () => {
    const { container } = render(
      <AppMarkdown
        markdown={
          '# Treytir\n\n## Binditíð\n\n- 6 mánaðir\n\n[Alda](https://alda.fo)\n\n<script>alert(1)</script><b>rá</b>'
        }
      />,
    );
    const prose = container.querySelector('.prose-alda');
    expect(prose?.querySelector('h2[data-md="h1"]')?.textContent).toBe('Treytir');
    expect(prose?.querySelector('h3[data-md="h2"]')?.textContent).toBe('Binditíð');
    expect(prose?.querySelector('li')?.textContent).toBe('6 mánaðir');
    expect(prose?.querySelector('a')?.getAttribute('href')).toBe('https://alda.fo');
    expect(prose?.querySelector('script, b')).toBeNull();
    expect(prose?.querySelector('h1')).toBeNull();
  });
});
