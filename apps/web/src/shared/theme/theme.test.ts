import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '@/shared/native/preferences';
import { createThemeStore, THEME_KEY } from './theme';

/** A `prefers-color-scheme: dark` query whose answer the test changes. */
function fakeSystem(dark: boolean) {
  const target = new EventTarget();
  const query = Object.assign(target, { matches: dark, media: '(prefers-color-scheme: dark)' });
  return {
    query: query as unknown as MediaQueryList,
    set(next: boolean) {
      query.matches = next;
      target.dispatchEvent(new Event('change'));
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('theme (issue 16 item 5, ADR 0067)', () => {
  it('starts light without working out the page’s style at once, and changes colour without a fade (issue 45)', async () => {
    const root = document.createElement('html');
    const styled: (string | undefined)[] = [];
    vi.spyOn(window, 'getComputedStyle').mockImplementation(() => {
      // Which state the page's style was worked out in: transitions off while switching.
      styled.push(root.dataset.themeSwitch);
      return { color: '' } as CSSStyleDeclaration;
    });
    const system = fakeSystem(false);
    const store = createThemeStore({
      storage: createMemoryStorage(),
      root,
      systemDark: system.query,
    });
    await store.restore();
    expect(root.dataset.theme).toBe('light');
    expect(styled).toEqual([]);
    system.set(true);
    expect(root.dataset.theme).toBe('dark');
    expect(styled).toEqual(['']);
    expect(root.dataset.themeSwitch).toBeUndefined();
  });

  it('follows the system until the customer chooses, and then keeps the choice on the device', async () => {
    const storage = createMemoryStorage();
    const system = fakeSystem(true);
    const root = document.createElement('html');
    const store = createThemeStore({ storage, root, systemDark: system.query });
    await store.restore();
    expect([store.choice(), root.dataset.theme]).toEqual(['system', 'dark']);
    // The phone switches to light: so does the app, at once.
    system.set(false);
    expect(root.dataset.theme).toBe('light');

    await store.choose('dark');
    expect(root.dataset.theme).toBe('dark');
    expect(await storage.get(THEME_KEY)).toBe('dark');
    // A chosen theme no longer follows the system.
    system.set(true);
    system.set(false);
    expect(root.dataset.theme).toBe('dark');

    // After a restart the kept choice is shown.
    const again = createThemeStore({
      storage,
      root: document.createElement('html'),
      systemDark: system.query,
    });
    await again.restore();
    expect([again.choice(), again.theme()]).toEqual(['dark', 'dark']);
  });

  it('ignores a kept value it does not know and shows the system’s theme', async () => {
    const storage = createMemoryStorage({ [THEME_KEY]: 'sepia' });
    const root = document.createElement('html');
    const store = createThemeStore({ storage, root, systemDark: fakeSystem(false).query });
    await store.restore();
    expect([store.choice(), root.dataset.theme]).toEqual(['system', 'light']);
  });

  it('colours the browser chrome to match (meta theme-color)', async () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.append(meta);
    const store = createThemeStore({
      storage: createMemoryStorage(),
      root: document.documentElement,
      systemDark: fakeSystem(false).query,
    });
    await store.choose('dark');
    expect(meta.content).toBe('#0b1217');
    await store.choose('light');
    expect(meta.content).toBe('#0b2e3f');
    meta.remove();
  });
});
