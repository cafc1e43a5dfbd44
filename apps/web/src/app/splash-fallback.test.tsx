import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import fo from '@/locales/fo.json';
import { splashHtml } from '@/shared/ui/splash-markup';
import { createTestContext, Providers } from '@/test/render';
import { withStaticSplash } from '../../static-splash';
import { SplashFallback } from './splash-fallback';

describe('the splash (SPEC §1 start-up, issue 13 first paint)', () => {
  it('index.html paints the same splash React shows while the first route loads', () => {
    const { container } = render(
      <Providers ctx={createTestContext()}>
        <SplashFallback />
      </Providers>,
    );
    const template = document.createElement('template');
    template.innerHTML = splashHtml(fo.app.loading);
    const fromReact = container.querySelector('[role="status"]');

    expect(fromReact).not.toBeNull();
    // Same elements, attributes and classes: the swap from HTML to React does not move a pixel.
    expect(template.content.firstElementChild?.isEqualNode(fromReact)).toBe(true);
  });

  it('the static splash goes into the empty #root, its label escaped', () => {
    const html = withStaticSplash('<body><div id="root"></div></body>', 'A <b>"x"</b> & y');
    expect(html).toContain(
      '<div id="root"><div role="status" aria-label="A &#60;b&#62;&#34;x&#34;&#60;/b&#62; &#38; y"',
    );
    expect(() => withStaticSplash('<body></body>', 'x')).toThrow(/no <div id="root">/);
  });
});
