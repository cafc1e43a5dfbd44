import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// The light tokens are in theme/tokens.css (shared with the staff console), the dark ones in styles.css.
const css = ['theme/tokens.css', 'styles.css']
  .map((file) => readFileSync(path.join(import.meta.dirname, file), 'utf8'))
  .join('\n');

/** The colour tokens (`--color-<name>: #rrggbb`) of one block of styles.css. */
function tokensOf(block: string): Record<string, string> {
  return Object.fromEntries(
    [...block.matchAll(/--color-([a-z]+(?:-\d+)?):\s*(#[0-9a-f]{6})\b/gi)].map(([, name, hex]) => [
      name,
      hex,
    ]),
  );
}

/** The block of styles.css that opens with `opening` (up to its first closing brace line). */
function blockOf(opening: string): string {
  const start = css.indexOf(opening);
  if (start < 0) throw new Error(`No ${opening} in styles.css`);
  return css.slice(start, css.indexOf('\n}', start));
}

/** The light theme's tokens (`@theme`), plus white. */
const LIGHT: Record<string, string> = { white: '#ffffff', ...tokensOf(blockOf('@theme {')) };

/**
 * The dark theme's tokens (ADR 0067): the same names with dark values. Every token is
 * overridden, so nothing of the light theme shows through on a dark screen.
 */
const DARK: Record<string, string> = tokensOf(blockOf(":root[data-theme='dark'] {"));

let TOKENS = LIGHT;

/** WCAG 2.2 relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2 contrast ratio of two tokens. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(hex(a)), luminance(hex(b))].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

function hex(token: string): string {
  const value = TOKENS[token];
  if (!value) throw new Error(`No colour token ${token} in styles.css`);
  return value;
}

/** The light surfaces every screen sits on: cards, the app background, chips and toggles. */
const LIGHT_SURFACES = ['white', 'mist-50', 'mist-100'];

/** Colours the app writes text in on its light surfaces (`text-…` classes). */
const TEXT_ON_LIGHT = [
  'mist-500', // captions, hints, the footer's inactive items, placeholders
  'mist-600',
  'mist-700',
  'mist-800',
  'mist-900',
  'ocean-700',
  'ocean-800',
  'ocean-900',
  'ocean-950',
  'fjord-600', // links
  'fjord-700',
  'danger-600',
  'danger-700',
  'warning-600',
  'success-600',
  'puffin-600',
];

/** Text on a tinted box, badge or avatar: [text, background]. */
const TEXT_ON_TINTS: [string, string][] = [
  ['danger-600', 'danger-50'], // badges, error states
  ['danger-700', 'danger-50'], // error alerts
  ['warning-600', 'warning-50'], // warning alerts, badges, order notes
  ['success-600', 'success-50'], // success alerts, badges
  ['puffin-600', 'puffin-50'], // accent badges
  ['puffin-600', 'puffin-100'], // avatars
  ['fjord-600', 'fjord-50'],
  ['fjord-700', 'fjord-50'], // quick actions
  ['fjord-700', 'fjord-100'], // avatars
  ['ocean-700', 'ocean-50'], // info badges, list rows
  ['ocean-800', 'ocean-50'], // info alerts
  ['ocean-800', 'ocean-100'], // choices, avatars
  ['mist-700', 'mist-100'], // neutral badges
  ['mist-800', 'mist-200'], // avatars
  ['mist-900', 'puffin-50'], // warning toasts
];

/** Light text on filled buttons, badges, toasts and the brand bands: [text, background]. */
const TEXT_ON_FILLS: [string, string][] = [
  ['white', 'ocean-900'], // primary buttons, info toasts
  ['white', 'ocean-700'], // chosen options, the brand band's lightest end
  ['white', 'puffin-600'], // accent buttons, the unread badge
  ['white', 'danger-600'], // danger buttons, error toasts
  ['white', 'success-600'],
  ['white', 'fjord-600'], // the chosen locality
  ['white', 'mist-900'], // the store badges
  ['fjord-200', 'ocean-700'], // the brand band's kicker, over its lightest end
  ['ocean-100', 'ocean-700'], // the brand band's lead and the card's expiry
];

/**
 * Colours used only for icons, borders and decoration, never for text (WCAG 1.4.3 does not
 * apply; the icons next to them carry no meaning of their own): chevrons, placeholders of
 * avatars, the logo mark, the spinner of the splash screen, the brand band's wave.
 */
const DECORATION_ONLY = [
  'mist-400',
  'fjord-300',
  'ocean-200',
  'puffin-500',
  'ocean-600',
  'mist-200', // the usage charts' grid lines
];

it('the dark theme overrides every colour token of the light one (ADR 0067)', () => {
  expect(Object.keys(DARK).sort()).toEqual(Object.keys(LIGHT).sort());
});

/**
 * Colours of graphics that carry meaning (WCAG 1.4.11, 3:1): the usage history's bars — at home
 * and in the EU — and its allowance line (`text-…` classes there only feed the chart's canvas).
 */
const GRAPHICS = ['ocean-500', 'fjord-500', 'puffin-500'];

describe.each([
  ['light', LIGHT],
  ['dark', DARK],
])(
  'WCAG 2.2 AA 1.4.3 Contrast (Minimum), %s theme: text colours of styles.css against their backgrounds',
  (_theme, tokens) => {
    beforeAll(() => {
      TOKENS = tokens;
    });

    it.each(TEXT_ON_LIGHT.flatMap((text) => LIGHT_SURFACES.map((bg) => [text, bg] as const)))(
      'text-%s on %s is at least 4.5:1',
      (text, bg) => {
        expect(contrast(text, bg)).toBeGreaterThanOrEqual(4.5);
      },
    );

    it.each([...TEXT_ON_TINTS, ...TEXT_ON_FILLS])(
      'text-%s on bg-%s is at least 4.5:1',
      (text, bg) => {
        expect(contrast(text, bg)).toBeGreaterThanOrEqual(4.5);
      },
    );

    // WCAG 2.2 AA 1.4.11 Non-text Contrast: the usage charts' bars and allowance line on the card.
    it.each(GRAPHICS.flatMap((mark) => ['white', 'mist-50'].map((bg) => [mark, bg] as const)))(
      'chart marks in %s on %s are at least 3:1',
      (mark, bg) => {
        expect(contrast(mark, bg)).toBeGreaterThanOrEqual(3);
      },
    );

    it('mist-500, the lightest text colour, is 4.5:1 on white and on mist-100 (issue 13: #687d8a was 4.29:1)', () => {
      expect(contrast('mist-500', 'white')).toBeGreaterThanOrEqual(4.5);
      expect(contrast('mist-500', 'mist-100')).toBeGreaterThanOrEqual(4.5);
    });

    it('every text colour class of the app is one of the colours checked above (or decoration)', () => {
      const sources = import.meta.glob<string>('./**/*.tsx', {
        query: '?raw',
        import: 'default',
        eager: true,
      });
      const checked = new Set([
        ...TEXT_ON_LIGHT,
        ...[...TEXT_ON_TINTS, ...TEXT_ON_FILLS].map(([text]) => text),
        ...DECORATION_ONLY,
        ...GRAPHICS,
      ]);
      const unchecked = new Set<string>();
      for (const [file, source] of Object.entries(sources)) {
        if (file.endsWith('.test.tsx')) continue;
        for (const [, token] of source.matchAll(/\btext-([a-z]+-\d{2,3})\b/g)) {
          if (token && token in TOKENS && !checked.has(token)) unchecked.add(`${token} (${file})`);
        }
      }
      expect([...unchecked]).toEqual([]);
    });
  },
);
