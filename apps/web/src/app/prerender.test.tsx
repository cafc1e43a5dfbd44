import { describe, expect, it } from 'vitest';
import { renderLoginScreen } from './prerender';

describe('the prerendered login screen (ADR 0072, issue 41)', () => {
  it('shows the language choice disabled until the app starts, so a tap on it is not lost when the app replaces the markup', async () => {
    const screen = document.createElement('div');
    screen.innerHTML = await renderLoginScreen();
    const radios = [...screen.querySelectorAll('[role="radio"]')];
    expect(radios.map((radio) => radio.textContent)).toEqual(['Føroyskt', 'English']);
    for (const radio of radios) expect(radio.matches(':disabled')).toBe(true);
    // The ways in are links: followed before the app has started, they load their page.
    const links = [...screen.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(
      expect.arrayContaining(['/rita-inn/vid-telefonnummari', '/rita-inn/vid-telduposti']),
    );
  });
});
