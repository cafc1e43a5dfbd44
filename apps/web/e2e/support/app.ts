import { expect, type Page } from '@playwright/test';
import type * as AxeCore from 'axe-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Person } from './fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const shotDir = path.join(here, '..', 'screenshots');

/** The sections of the texts (fo.json's top-level keys). */
const sections = Object.keys(
  JSON.parse(readFileSync(path.join(here, '../../src/locales/fo.json'), 'utf8')) as object,
);
/** A text's key shown instead of the text (`menu.title`): a section, a dot, a name. */
const TEXT_KEY = new RegExp(`\\b(?:${sections.join('|')})\\.[A-Za-z]\\w*`);

/**
 * Saves a phone screenshot under apps/web/e2e/screenshots/<name>.png: the whole page by default,
 * or with `{ fullPage: false }` only the first screen, as the user sees it (the fixed footer then
 * sits where it belongs instead of over the middle of a long page). Every screen photographed
 * also
 * - shows no translation key in place of a text, on screen or in an accessible name (issue 13:
 *   the later screens' texts load after the first screen);
 * - passes axe-core's WCAG 2.2 A/AA rules with no violation, in the light theme and again in the
 *   dark one, photographed as <name>-dark.png (issue 16 item 5, ADR 0067) — when the screen
 *   follows the system's theme, which it does unless the journey chose one in the menu.
 */
export async function screenshot(
  page: Page,
  name: string,
  {
    fullPage = true,
    scripts = true,
  }: {
    fullPage?: boolean;
    /** False for a page opened with JavaScript off: axe-core cannot run in it. */
    scripts?: boolean;
  } = {},
): Promise<void> {
  const shown = await page.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(document.querySelectorAll('[aria-label]'), (el) =>
        el.getAttribute('aria-label'),
      ),
    ].join('\n'),
  );
  expect(shown.match(TEXT_KEY)?.[0], `a text key on ${name}`).toBeUndefined();
  // axe-core once what opens has opened (colours mid-fade are no one's contrast), but while a
  // modal that was just answered still animates out (ADR 0070: the page is back the moment
  // closing starts); the picture once it has gone.
  if (scripts) {
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().iterations === Infinity ||
            (animation.effect instanceof KeyframeEffect &&
              animation.effect.target?.closest('[data-state="closed"]')),
        ),
    );
    await expectAccessible(page, name);
  }
  await expect(page.locator('[data-modal-frame][data-state="closed"]')).toHaveCount(0);
  await page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage });
  if (!scripts) return;
  if ((await themeShown(page)) === null) return;
  await showTheme(page, 'dark');
  try {
    await page.screenshot({ path: path.join(shotDir, `${name}-dark.png`), fullPage });
    await expectAccessible(page, `${name} (dark)`);
  } finally {
    await showTheme(page, 'light');
  }
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA: what issue 16 asks every screen to pass. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** axe-core on the page as it is: no violation of WCAG 2.2 AA (the failures name rule and nodes). */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Evaluated, not a script tag: the app's Content-Security-Policy allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: typeof AxeCore }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return result.violations.map((v) => ({
      rule: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  }, WCAG_AA);
  expect(violations, `axe-core on ${name}`).toEqual([]);
}

/** The theme on <html> (ADR 0067); null before the app has set one. */
function themeShown(page: Page): Promise<string | null> {
  return page.evaluate(() => document.documentElement.dataset.theme ?? null);
}

/**
 * The system's colour scheme as the page sees it, and waits until the app shows it (the theme
 * changes at once, without colour transitions: theme.ts). Polled from here, not in the page: a
 * journey may have frozen the page's clock.
 */
async function showTheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => themeShown(page)).toBe(scheme);
}

/** Page object of the e-mail login journey (SPEC §2 login.email). */
export async function loginByEmail(page: Page, email: string, password: string) {
  await page.goto('/rita-inn/vid-telduposti');
  await page.getByLabel('Teldupostur').fill(email);
  await page.getByLabel('Loyniorð', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Rita inn' }).click();
}

/** Signs `person` in by e-mail and waits for home with their name. */
export async function signIn(page: Page, person: Person) {
  await loginByEmail(page, person.email, person.password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(person.firstname).first()).toBeVisible();
}

/** A toast as the page showed it: its kind (`data-toast-type`) and its text. */
interface ShownToast {
  type: string;
  text: string;
}

const toastLogs = new WeakMap<Page, ShownToast[]>();

/**
 * Every toast `page` shows from now on, recorded the moment it appears (issue 41). A toast goes
 * by itself after 3 s (SPEC §9), so "is it visible now" is a state the app is already leaving:
 * on a busy machine the check can come after it has gone. What a journey means is "the app said
 * so", and that is the event this records — in every document the page opens, across reloads.
 */
export async function watchToasts(page: Page) {
  let log = toastLogs.get(page);
  if (!log) {
    const entries: ShownToast[] = [];
    log = entries;
    toastLogs.set(page, entries);
    await page.exposeBinding('__e2eToastShown', (_source, toast: ShownToast) => {
      entries.push(toast);
    });
    const observe = () => {
      const reported = new WeakMap<Element, string>();
      const report = () => {
        for (const element of document.querySelectorAll('[data-toast-type]')) {
          const text = element.textContent?.trim() ?? '';
          if (!text || reported.get(element) === text) continue;
          reported.set(element, text);
          const type = element.getAttribute('data-toast-type') ?? '';
          void (
            window as unknown as { __e2eToastShown: (t: ShownToast) => Promise<void> }
          ).__e2eToastShown({ type, text });
        }
      };
      new MutationObserver(report).observe(document, {
        childList: true,
        subtree: true,
        characterData: true,
      });
      report();
    };
    await page.addInitScript(observe);
    await page.evaluate(observe);
  }
  const shown = log;
  return {
    /**
     * Waits until a toast with exactly this text has been shown (it may have gone since). Each
     * toast answers one expectation: the same text expected again needs a toast of its own.
     */
    async expectShown(text: string, type: 'info' | 'warning' | 'error' = 'info') {
      await expect
        .poll(
          () => {
            const at = shown.findIndex((t) => t.type === type && t.text === text);
            if (at >= 0) shown.splice(at, 1);
            return at >= 0;
          },
          { message: `a toast "${text}"` },
        )
        .toBe(true);
    },
  };
}

/**
 * Chooses a language on the login screen's switch and waits until this device has kept the
 * choice (SPEC §1: the device's choice wins over the account's language). A journey that loads
 * another page right after must not leave before the choice is kept.
 */
export async function chooseLanguage(page: Page, name: 'Føroyskt' | 'English') {
  await page.getByRole('radio', { name }).click();
  await expect.poll(() => keptOnDevice(page, 'locale')).toBe(name === 'English' ? 'en' : 'fo');
}

/** What the app keeps on this device under `key` (Capacitor Preferences on the web). */
export function keptOnDevice(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(`CapacitorStorage.${k}`), key);
}
