import { expect, type Page } from '@playwright/test';

/**
 * Larger text as the phone's own text size setting gives it (Android's font size, which the
 * WebView applies as text zoom; iOS's Dynamic Type): every font size and line height grows by
 * `factor`, the spacing and the screen's width stay as they are (WCAG 1.4.4, issue 16 item 5,
 * ADR 0067). The app's text sizes are the `--text-*` tokens of styles.css, so scaling the tokens
 * scales all text — and `expectTextScaled` proves that no text escapes them.
 */
export async function scaleText(page: Page, factor: number): Promise<void> {
  await page.evaluate((factor) => {
    const root = document.documentElement;
    const tokens: [string, number][] = [];
    const walk = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule && /:root/.test(rule.selectorText)) {
          for (const name of Array.from(rule.style)) {
            const rem = /^([\d.]+)rem$/.exec(rule.style.getPropertyValue(name).trim());
            if (name.startsWith('--text-') && rem) tokens.push([name, Number(rem[1])]);
          }
        } else if ('cssRules' in rule) walk((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) walk(sheet.cssRules);
    for (const [name, rem] of tokens) root.style.setProperty(name, `${rem * factor}rem`);
  }, factor);
}

/** Back to the phone's normal text size. */
export async function resetTextScale(page: Page): Promise<void> {
  await page.evaluate(() => {
    const root = document.documentElement;
    for (const name of Array.from(root.style))
      if (name.startsWith('--text-')) root.style.removeProperty(name);
  });
}

/**
 * With the text at 200 % (`scaleText(page, 2)` before): every text on the screen is twice its
 * normal size, and none of it is lost — nothing reaches past the screen's edges (only a list made
 * to scroll sideways may), and no text is cut off by its box or an ellipsis (WCAG 1.4.4 "without
 * loss of content or functionality").
 */
export async function expectTextAt200(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 390;
  const problems = await page.evaluate((width) => {
    const found: string[] = [];
    const root = document.documentElement;
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const scrollsSideways = (el: Element | null): boolean => {
      for (let node = el; node && node !== root; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX;
        if (overflow === 'auto' || overflow === 'scroll') return true;
      }
      return false;
    };
    /** Inside screen-reader-only text (1 px and clipped on purpose) or not drawn at all. */
    const unseen = (el: Element): boolean => {
      for (let node: Element | null = el; node && node !== root; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility === 'hidden') return true;
        if (style.clip !== 'auto' && style.clip !== '') return true;
        if (style.clipPath !== 'none' && style.position === 'absolute') return true;
      }
      return false;
    };
    const texts = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter((el) =>
      Array.from(el.childNodes).some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim(),
      ),
    );
    // 1. Scaled: the normal size is the token's; with the inline tokens gone, compare.
    const scaled = texts.map((el) => parseFloat(getComputedStyle(el).fontSize));
    const saved = Array.from(root.style)
      .filter((n) => n.startsWith('--text-'))
      .map((n) => [n, root.style.getPropertyValue(n)] as const);
    for (const [n] of saved) root.style.removeProperty(n);
    const normal = texts.map((el) => parseFloat(getComputedStyle(el).fontSize));
    for (const [n, v] of saved) root.style.setProperty(n, v);
    texts.forEach((el, i) => {
      if (scaled[i]! < normal[i]! * 2 - 0.5)
        found.push(`not scaled: ${describe(el)} ${normal[i]}px → ${scaled[i]}px`);
    });
    // 2. Nothing reaches past the screen's edges, so the page never scrolls sideways and the
    //    fixed footer loses nothing (only a list made to scroll sideways may run on).
    const outside = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter((el) => {
      if (el.clientWidth <= 1 || scrollsSideways(el.parentElement) || unseen(el)) return false;
      const rect = el.getBoundingClientRect();
      return rect.width > 0 && (rect.right > width + 1 || rect.left < -1);
    });
    const innermost = outside.filter((el) => !outside.some((o) => o !== el && el.contains(o)));
    for (const el of innermost.slice(0, 5)) found.push(`past the screen's edge: ${describe(el)}`);
    // 3. No text cut off by its box or an ellipsis (screen-reader-only text is 1 px on purpose).
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (!el.textContent?.trim() || el.clientWidth <= 1 || el.clientHeight <= 1 || unseen(el))
        continue;
      const style = getComputedStyle(el);
      const clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      if ((clipsX || style.textOverflow === 'ellipsis') && el.scrollWidth > el.clientWidth + 1)
        found.push(`cut off sideways: ${describe(el)}`);
      if (clipsY && el.scrollHeight > el.clientHeight + 1)
        found.push(`cut off below: ${describe(el)}`);
    }
    return found;
  }, width);
  expect(problems, `text at 200 % on ${name}`).toEqual([]);
}

/**
 * Keyboard focus (WCAG 2.4.7 and 2.4.11): tabbing through the screen, every element that takes
 * the focus shows a visible indicator (an outline of at least 2 px, or a ring), and the fixed
 * footer or header never hides it entirely. Checks the first `stops` tab stops.
 */
export async function expectFocusVisible(page: Page, name: string, stops = 25): Promise<void> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const problems: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < stops; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const outline =
        style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
          ? style.outlineColor
          : null;
      const ring = style.boxShadow !== 'none' ? style.boxShadow : null;
      const rect = el.getBoundingClientRect();
      // Not obscured: some point of the element is the topmost thing there.
      const points = [
        [rect.left + rect.width / 2, rect.top + rect.height / 2],
        [rect.left + 2, rect.top + 2],
        [rect.right - 2, rect.bottom - 2],
      ];
      const shown = points.some(([x, y]) => {
        const top = document.elementFromPoint(x!, y!);
        return !!top && (el === top || el.contains(top) || top.contains(el));
      });
      const id = `${el.tagName}|${el.getAttribute('aria-label') ?? ''}|${(el.textContent ?? '').trim().slice(0, 30)}|${Math.round(rect.top + window.scrollY)}`;
      return {
        id,
        label: `<${el.tagName.toLowerCase()}> "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`,
        visible: outline !== null || ring !== null,
        shown,
      };
    });
    if (!stop || seen.has(stop.id)) break;
    seen.add(stop.id);
    if (!stop.visible) problems.push(`no visible focus: ${stop.label}`);
    if (!stop.shown) problems.push(`focus hidden under another element: ${stop.label}`);
  }
  expect(seen.size, `tab stops on ${name}`).toBeGreaterThan(1);
  expect(problems, `keyboard focus on ${name}`).toEqual([]);
}
