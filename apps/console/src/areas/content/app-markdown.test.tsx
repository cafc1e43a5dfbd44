import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppMarkdown } from './app-markdown';

/* The preview renders markdown with the customer app's component (features/content/app-markdown). */

describe('markdown as the app renders it', () => {
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
