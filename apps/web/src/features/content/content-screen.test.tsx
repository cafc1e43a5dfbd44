import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferred, fail, ok } from '@/test/fake-api';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const privacy = {
  slug: 'privacy',
  locale: 'fo',
  title: 'Privatlívspolitikkur',
  markdown:
    '# Persónupplýsingar\n\nVit goyma **bert** tað, vit hava brúk fyri.\n\n- Navn\n- Teldupostur\n\n<script>alert(1)</script>',
  updatedAt: '2025-03-01T10:00:00Z',
};

describe('terms and privacy (SPEC §2: markdown from the API)', () => {
  it('renders the markdown with its title and date (SPEC §2)', async () => {
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/privatlivspolitikkur'],
      api: { 'GET /content/privacy': () => ok(privacy) },
    });
    expect(await screen.findByRole('heading', { name: 'Persónupplýsingar' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Privatlívspolitikkur' })).toBeTruthy();
    expect(screen.getByText('bert').tagName).toBe('STRONG');
    const article = screen.getByRole('article');
    expect([...article.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Navn',
      'Teldupostur',
    ]);
    expect(screen.getByText('Seinast dagført 01.03.2025')).toBeTruthy();
    // Raw HTML in the markdown is not rendered.
    expect(article.querySelector('script')).toBeNull();
  });

  it('shows a loading state until the text arrives', async () => {
    const answer = deferred<Response>();
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/treytir'],
      api: { 'GET /content/terms': () => answer.promise },
    });
    expect(await screen.findByRole('status', { name: 'Heintar…' })).toBeTruthy();
    answer.resolve(ok({ ...privacy, slug: 'terms', title: 'Treytir', markdown: 'Treytirnar' }));
    expect(await screen.findByText('Treytirnar')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Heintar…' })).toBeNull();
  });

  it('shows an error with a retry that works', async () => {
    let calls = 0;
    await renderApp({
      user: demoUser,
      initialEntries: ['/menu/treytir'],
      api: {
        'GET /content/terms': () =>
          ++calls === 1
            ? fail(503, 'SERVICE_UNAVAILABLE')
            : ok({ ...privacy, slug: 'terms', title: 'Treytir', markdown: 'Treytirnar' }),
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Vit kundu ikki heinta tekstin.');
    expect(alert.textContent).toContain('Tænastan er ikki tøk í løtuni.');
    await userEvent.click(screen.getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByText('Treytirnar')).toBeTruthy();
  });
});
