import { themeStore } from '@/shared/theme/theme-store';
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UsageHistoryResponse } from '@alda/contract/schemas/usage';
import { fail, ok } from '@/test/fake-api';
import { ownerData } from '@/test/account-fixtures';
import { demoUser } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type uPlot from 'uplot';

// jsdom has no canvas: uPlot itself is replaced by a recorder of what it is asked to draw. All
// of ours runs for real — the query, the screen, the table, the legend and uplot-chart.ts.
interface Drawn {
  options: uPlot.Options;
  data: (number | null)[][];
}
const drawn = vi.hoisted(() => [] as Drawn[]);
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    static pxRatio = 1;
    constructor(options: uPlot.Options, data: (number | null)[][]) {
      drawn.push({ options, data });
    }
    setSize() {}
    destroy() {}
  }
  return { default: FakePlot };
});

/** The y value the chart's dashed allowance line is drawn at, or null when it draws none. */
function budgetLine({ options }: Drawn): number | null {
  let at: number | null = null;
  const noop = () => {};
  const ctx = Object.fromEntries(
    ['save', 'restore', 'setLineDash', 'beginPath', 'moveTo', 'lineTo', 'stroke'].map((name) => [
      name,
      noop,
    ]),
  );
  const plot = {
    valToPos: (value: number) => ((at = value), 0),
    ctx,
    bbox: { left: 0, top: 0, width: 100, height: 100 },
  } as unknown as uPlot;
  for (const hook of options.hooks?.draw ?? []) hook?.(plot);
  return at;
}

/** The labels written under the x axis. */
function xLabels({ options }: Drawn): string[] {
  const axis = options.axes?.[0];
  const splits = typeof axis?.splits === 'function' ? axis.splits({} as uPlot, 0, 0, 0, 0, 0) : [];
  const values = axis?.values;
  return typeof values === 'function' ? values({} as uPlot, splits, 0, 0, 0).map(String) : [];
}

const HISTORY_PATH = 'GET /subscriptions/sub-joannes/usage-history';

/** Jóannes's number on 15 June 2026: 15 days of June, January to June. */
const june: UsageHistoryResponse = {
  phoneNumber: '214455',
  month: '2026-06',
  allowanceMb: 20 * 1024,
  euAllowanceMb: 25 * 1024,
  days: Array.from({ length: 15 }, (_, i) => ({
    date: `2026-06-${String(i + 1).padStart(2, '0')}`,
    domesticMb: i === 1 ? 0 : 300 + i * 10,
    euMb: i === 14 ? 1_200 : 0,
  })),
  months: [
    { month: '2026-01', domesticMb: 14_000, euMb: 0 },
    { month: '2026-02', domesticMb: 15_360, euMb: 0 },
    { month: '2026-03', domesticMb: 13_100, euMb: 2_600 },
    { month: '2026-04', domesticMb: 16_000, euMb: 0 },
    { month: '2026-05', domesticMb: 12_500, euMb: 0 },
    { month: '2026-06', domesticMb: 5_240, euMb: 1_200 },
  ],
  updatedAt: '2026-06-15T11:53:00.000Z',
};

const open = (answer: () => Response, locale: 'fo' | 'en' = 'fo') => {
  drawn.length = 0;
  return renderApp({
    user: demoUser,
    data: ownerData,
    locale,
    initialEntries: ['/nytsla/sub-joannes'],
    api: { [HISTORY_PATH]: answer },
  });
};

describe('usage history (issue 16, ADR 0066: nytsla/:id)', () => {
  it('shows this month day by day and six months, each with a table of the figures', async () => {
    await open(() => ok(june));
    expect(await screen.findByRole('heading', { level: 1, name: 'Nýtsla' })).toBeTruthy();
    expect(await screen.findByText('21 44 55')).toBeTruthy();
    expect(screen.getByText('Dagført 15.06.2026 kl. 12:53')).toBeTruthy();

    const days = screen.getByRole('region', { name: 'Dag fyri dag í juni 2026' });
    expect(days.textContent).toContain('Brúkt í Føroyum: 5,12 GB av 20 GB');
    expect(days.textContent).toContain('Brúkt í ES: 1,17 GB av 25 GB');
    // The plan's 20 GB spread over June's 30 days.
    expect(days.textContent).toContain('Títt data býtt á dagarnar (683 MB um dagin)');
    const dayTable = within(days).getByRole('table', { name: 'Data brúkt hvønn dag í juni 2026' });
    const dayRows = within(dayTable).getAllByRole('row').slice(1);
    expect(dayRows).toHaveLength(15);
    expect(dayRows[0]?.textContent).toBe('01.06.2026300 MB0 MB');
    expect(dayRows[1]?.textContent).toBe('02.06.20260 MB0 MB');
    expect(dayRows[14]?.textContent).toBe('15.06.2026440 MB1,17 GB');
    expect(
      within(dayTable)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Dagur', 'Í Føroyum', 'Í ES']);

    const months = screen.getByRole('region', { name: 'Seinastu 6 mánaðirnar' });
    const monthTable = within(months).getByRole('table', {
      name: 'Data brúkt hvønn mánað seinastu 6 mánaðirnar',
    });
    const monthRows = within(monthTable).getAllByRole('row').slice(1);
    expect(monthRows.map((r) => r.querySelector('th')?.textContent)).toEqual([
      'januar 2026',
      'februar 2026',
      'mars 2026',
      'apríl 2026',
      'mai 2026',
      'juni 2026',
    ]);
    expect(monthRows[1]?.textContent).toBe('februar 202615 GB0 MB');
    expect(months.textContent).toContain('Títt data um mánaðin (20 GB)');
    expect(screen.getByText(/eisini fyri farnar mánaðir/)).toBeTruthy();
  });

  it('draws the days of the whole month (none yet for days to come) and the allowance as a line', async () => {
    await open(() => ok(june));
    await waitFor(() => expect(drawn).toHaveLength(2));
    const [daily, monthly] = drawn as [Drawn, Drawn];
    // June's 30 days, in GB (the allowance line is 20 GB / 30 ≈ 0.67 GB a day); 16–30 June
    // have no bars yet. The total (EU on top of domestic) is drawn first, domestic over it.
    const [xs = [], total = [], domestic = []] = daily.data;
    expect(xs).toHaveLength(30);
    expect(domestic.slice(0, 2)).toEqual([300 / 1024, 0]);
    expect(domestic.slice(15)).toEqual(Array(15).fill(null));
    expect(total[14]).toBe((440 + 1_200) / 1024);
    expect(budgetLine(daily)).toBeCloseTo(20 / 30);
    expect(xLabels(daily)).toEqual(['1', '5', '10', '15', '20', '25', '30']);

    expect(xLabels(monthly)).toEqual(['jan', 'feb', 'mar', 'apr', 'mai', 'jun']);
    expect(monthly.data[2]?.[1]).toBe(15);
    expect(budgetLine(monthly)).toBe(20);
    const yValues = monthly.options.axes?.[1]?.values;
    expect(typeof yValues === 'function' && yValues({} as uPlot, [0, 12.5], 1, 0, 0)).toEqual([
      '0 GB',
      '12,5 GB',
    ]);
  });

  it('draws the charts again in the colours of a theme the customer switches to (ADR 0067)', async () => {
    await open(() => ok(june));
    await waitFor(() => expect(drawn).toHaveLength(2));
    await act(() => themeStore.choose('dark'));
    try {
      await waitFor(() => expect(drawn).toHaveLength(4));
    } finally {
      await act(() => themeStore.choose('system'));
    }
  });

  it('shows the table to sighted users on request (screen readers always have it)', async () => {
    await open(() => ok(june));
    const days = await screen.findByRole('region', { name: 'Dag fyri dag í juni 2026' });
    const table = within(days).getByRole('table');
    expect(table.closest('.sr-only')).not.toBeNull();
    const toggle = within(days).getByRole('button', { name: 'Vís tølini' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(table.closest('.sr-only')).toBeNull();
    expect(within(days).getByRole('button', { name: 'Fjal tølini' })).toBeTruthy();
  });

  it('draws no allowance on an unlimited plan or talutíð, and no EU column without EU use', async () => {
    await open(() =>
      ok({
        ...june,
        allowanceMb: null,
        euAllowanceMb: null,
        days: june.days.map((d) => ({ ...d, euMb: 0 })),
        months: june.months.map((m) => ({ ...m, euMb: 0 })),
      }),
    );
    const days = await screen.findByRole('region', { name: 'Dag fyri dag í juni 2026' });
    expect(days.textContent).toContain('Brúkt í Føroyum: 5,12 GB');
    expect(days.textContent).not.toContain(' av ');
    expect(days.textContent).not.toContain('Títt data');
    expect(
      within(days)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Dagur', 'Í Føroyum']);
    expect(screen.queryByText(/eisini fyri farnar mánaðir/)).toBeNull();
    await waitFor(() => expect(drawn).toHaveLength(2));
    expect(drawn.map(budgetLine)).toEqual([null, null]);
  });

  it('says so when nothing has been used yet', async () => {
    await open(() =>
      ok({
        ...june,
        days: june.days.map((d) => ({ ...d, domesticMb: 0, euMb: 0 })),
        months: june.months.map((m) => ({ ...m, domesticMb: 0, euMb: 0 })),
        updatedAt: null,
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Eingin nýtsla enn' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText(/Dagført/)).toBeNull();
    expect(drawn).toEqual([]);
  });

  it('shows the API’s error with a retry (a member opening another member’s number: 403)', async () => {
    const app = await open(() => fail(403, 'OWNER_ONLY'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Bara eigarin av haldinum kann gera hetta.');
    app.api.on(HISTORY_PATH, () => ok(june));
    await userEvent.click(within(alert).getByRole('button', { name: 'Royn aftur' }));
    expect(await screen.findByRole('region', { name: 'Seinastu 6 mánaðirnar' })).toBeTruthy();
    expect(app.api.callsTo(HISTORY_PATH)).toHaveLength(2);
  });

  it('is in English too', async () => {
    await open(() => ok(june), 'en');
    const days = await screen.findByRole('region', { name: 'Day by day in June 2026' });
    expect(days.textContent).toContain('Used in the Faroe Islands: 5.12 GB of 20 GB');
    expect(days.textContent).toContain('Used in the EU: 1.17 GB of 25 GB');
    expect(
      within(days).getByRole('table', { name: 'Data used each day in June 2026' }),
    ).toBeTruthy();
  });

  it('is opened from the data card on home', async () => {
    const app = await renderApp({
      user: demoUser,
      data: ownerData,
      api: { [HISTORY_PATH]: () => ok(june) },
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Sí nýtsluna' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/nytsla/sub-joannes'));
    expect(await screen.findByRole('region', { name: 'Seinastu 6 mánaðirnar' })).toBeTruthy();
  });
});
