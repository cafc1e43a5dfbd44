import { useSyncExternalStore } from 'react';
import { preferences } from '@/shared/native/preferences';
import { createThemeStore, type Theme, type ThemeChoice } from './theme';

/** The app's theme: on this document, kept in the device's preferences. */
export const themeStore = createThemeStore({
  storage: preferences,
  root: document.documentElement,
  systemDark:
    typeof window.matchMedia === 'function'
      ? window.matchMedia('(prefers-color-scheme: dark)')
      : undefined,
});

/** The customer's theme choice (system, light or dark) and a setter that shows and keeps it. */
export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => Promise<void>] {
  const choice = useSyncExternalStore(themeStore.subscribe, themeStore.choice, themeStore.choice);
  return [choice, themeStore.choose];
}

/** The theme shown now (light or dark); what draws colours itself (a canvas) draws again on it. */
export function useTheme(): Theme {
  return useSyncExternalStore(themeStore.subscribe, themeStore.theme, themeStore.theme);
}
