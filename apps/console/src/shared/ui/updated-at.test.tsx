import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { clockTime } from '../format';
import { createI18n } from '../i18n';
import { UpdatedAt } from './updated-at';

/* When a screen was last brought up to date: one text (common `updatedAt`) on every screen. */

describe('clockTime', () => {
  it('is the Tórshavn clock to the second, 24-hour, in both languages', () => {
    // Summer time is UTC+1, winter time UTC.
    expect(clockTime(Date.parse('2026-06-15T13:05:09Z'), 'fo')).toBe('14:05:09');
    expect(clockTime(Date.parse('2026-06-15T13:05:09Z'), 'en')).toBe('14:05:09');
    expect(clockTime(new Date('2026-12-24T00:00:05Z'), 'fo')).toBe('00:00:05');
    expect(clockTime(new Date('2026-12-24T00:00:05Z'), 'en')).toBe('00:00:05');
  });
});

describe('<UpdatedAt>', () => {
  const at = Date.parse('2026-06-15T13:05:09Z');

  it('says "Dagført kl. …" in Faroese and "Updated at …" in English', () => {
    const { unmount } = render(
      <I18nextProvider i18n={createI18n('fo')}>
        <UpdatedAt at={at} className="text-caption" />
      </I18nextProvider>,
    );
    const text = screen.getByText('Dagført kl. 14:05:09');
    expect(text.tagName).toBe('P');
    expect(text.className).toBe('text-caption');
    unmount();

    render(
      <I18nextProvider i18n={createI18n('en')}>
        <UpdatedAt at={at} as="span" aria-live="off" />
      </I18nextProvider>,
    );
    const english = screen.getByText('Updated at 14:05:09');
    expect(english.tagName).toBe('SPAN');
    expect(english.getAttribute('aria-live')).toBe('off');
  });
});
