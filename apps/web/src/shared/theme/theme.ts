import type { KeyValueStorage } from '@/shared/native/preferences';

/*
 * Light or dark (docs/decisions/0067-dark-mode-and-accessibility.md). The customer's choice —
 * follow the system, light or dark — is kept on the device; the theme shown is set on <html> as
 * `data-theme`, which styles.css turns into the dark colour tokens. Following the system, the
 * theme changes the moment the system's does.
 */

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Theme = 'light' | 'dark';

/** Preference key of the choice on the device. */
export const THEME_KEY = 'theme';

/** The browser chrome's colour per theme (`<meta name="theme-color">`): the brand's dark blue. */
const CHROME: Record<Theme, string> = { light: '#0b2e3f', dark: '#0b1217' };

const isChoice = (value: unknown): value is ThemeChoice =>
  THEME_CHOICES.includes(value as ThemeChoice);

export interface ThemeStore {
  choice(): ThemeChoice;
  theme(): Theme;
  /** Shows and keeps a new choice. */
  choose(choice: ThemeChoice): Promise<void>;
  /** Reads the kept choice and shows it (start-up). */
  restore(): Promise<void>;
  subscribe(listener: () => void): () => void;
}

export function createThemeStore(deps: {
  storage: KeyValueStorage;
  root: HTMLElement;
  /** `matchMedia('(prefers-color-scheme: dark)')`; absent where there is none (tests). */
  systemDark?: MediaQueryList;
}): ThemeStore {
  const { storage, root, systemDark } = deps;
  let choice: ThemeChoice = 'system';
  const listeners = new Set<() => void>();

  const resolve = (): Theme =>
    choice === 'system' ? (systemDark?.matches ? 'dark' : 'light') : choice;

  function show() {
    const theme = resolve();
    if (theme === (root.dataset.theme ?? 'light')) {
      // Nothing changes colour (the page starts light): no style to work out at once, which at
      // the app's start would cost a forced style pass of the whole page (issue 45).
      root.dataset.theme = theme;
    } else {
      // At once, not as a fade: no colour transition runs while the theme changes (the style is
      // worked out once with transitions off, then they are back for what the customer does).
      root.dataset.themeSwitch = '';
      root.dataset.theme = theme;
      void root.ownerDocument.defaultView?.getComputedStyle(root).color;
      delete root.dataset.themeSwitch;
    }
    const chrome = root.ownerDocument.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
    if (chrome) chrome.content = CHROME[theme];
    for (const listener of listeners) listener();
  }

  systemDark?.addEventListener('change', () => {
    if (choice === 'system') show();
  });

  return {
    choice: () => choice,
    theme: resolve,
    async choose(next) {
      choice = next;
      show();
      await storage.set(THEME_KEY, next);
    },
    async restore() {
      const kept = await storage.get(THEME_KEY).catch(() => null);
      choice = isChoice(kept) ? kept : 'system';
      show();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
