import { useEffect, useId, useRef, useState } from 'react';
import { formatNumber } from '@alda/contract/format/number';
import { useTheme } from '@/shared/theme/theme-store';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/shared/format/use-formatters';
import { useLocale } from '@/shared/i18n/use-locale';
import { cx } from '@/shared/ui/cx';
import type { BarChart, BarChartColors } from './uplot-chart';

/** One bar of a chart and one row of its table. */
export interface UsageBar {
  key: string;
  /** Under the bar on the x axis (written only for `ticks`). */
  axisLabel: string;
  /** The row's header in the table. */
  label: string;
  /** Null: no bar and no row (a day of the month still to come). */
  domesticMb: number | null;
  euMb: number | null;
}

export interface UsageChartProps {
  bars: readonly UsageBar[];
  /** The bars whose axis label is written. */
  ticks: readonly number[];
  caption: string;
  /** Header of the table's first column (day or month). */
  rowHeader: string;
  /** The allowance line in MB, and its legend; null draws none. */
  budget: { mb: number; label: string } | null;
  /** Whether EU use is a column and a legend entry (the line has the EU package, or used EU data). */
  showEu: boolean;
  height?: number;
}

/**
 * The chart's colours: Tailwind classes, so the theme (styles.css) is the one place they are
 * set. The legend shows the same classes; the canvas reads the computed colours.
 */
const PALETTE = {
  domestic: { text: 'text-ocean-500', swatch: 'bg-ocean-500' },
  eu: { text: 'text-fjord-500', swatch: 'bg-fjord-500' },
  budget: { text: 'text-puffin-500', swatch: 'border-puffin-500' },
  axis: { text: 'text-mist-600' },
  grid: { text: 'text-mist-200' },
} as const;

const FONT = '12px Inter, ui-sans-serif, system-ui, sans-serif';

/**
 * A bar chart of data use (stacked domestic and EU, with the allowance as a dashed line) and the
 * same figures as a table with a caption. The canvas is hidden from assistive technology: the
 * table is what a screen reader reads; sighted users can show it too. uPlot is loaded with
 * `import()` when the chart is first drawn.
 */
export function UsageChart({
  bars,
  ticks,
  caption,
  rowHeader,
  budget,
  showEu,
  height = 200,
}: UsageChartProps) {
  const { t } = useTranslation();
  const f = useFormatters();
  const [locale] = useLocale();
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();
  const canvasRef = useRef<HTMLDivElement>(null);
  const paletteRef = useRef<HTMLDivElement>(null);
  const theme = useTheme();

  // One unit for the whole axis: GB once a bar or the line reaches 1 GB.
  const highest = Math.max(
    budget?.mb ?? 0,
    ...bars.map((b) => (b.domesticMb ?? 0) + (b.euMb ?? 0)),
  );
  const unit = highest >= 1024 ? 'gb' : 'mb';
  const scale = unit === 'gb' ? 1 / 1024 : 1;

  useEffect(() => {
    const target = canvasRef.current;
    const palette = paletteRef.current;
    if (!target || !palette) return;
    let chart: BarChart | null = null;
    let stopped = false;
    const colorOf = (name: keyof typeof PALETTE) =>
      getComputedStyle(palette.querySelector(`[data-color="${name}"]`) ?? palette).color;
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => chart?.resize(target.clientWidth));
    void import('./uplot-chart').then(({ drawBarChart }) => {
      if (stopped) return;
      const colors: BarChartColors = {
        domestic: colorOf('domestic'),
        eu: colorOf('eu'),
        budget: colorOf('budget'),
        axis: colorOf('axis'),
        grid: colorOf('grid'),
      };
      chart = drawBarChart(target, {
        width: target.clientWidth,
        height,
        labels: bars.map((b, i) => (ticks.includes(i) ? b.axisLabel : '')),
        ticks,
        domestic: bars.map((b) => (b.domesticMb === null ? null : b.domesticMb * scale)),
        eu: bars.map((b) => (b.euMb === null ? null : b.euMb * scale)),
        budget: budget === null ? null : budget.mb * scale,
        colors,
        formatValue: (value) => t(`units.${unit}`, { value: formatNumber(value, locale) }),
        font: FONT,
      });
      observer?.observe(target);
    });
    return () => {
      stopped = true;
      observer?.disconnect();
      chart?.destroy();
    };
    // `theme`: drawn again in the other theme's colours when the customer switches.
  }, [bars, ticks, budget, height, scale, unit, locale, t, theme]);

  const shown = bars.filter((b) => b.domesticMb !== null);
  return (
    <div className="flex flex-col gap-3">
      <div ref={paletteRef} hidden>
        {Object.entries(PALETTE).map(([name, { text }]) => (
          <span key={name} data-color={name} className={text} />
        ))}
      </div>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-caption text-mist-600">
        <LegendItem swatch={PALETTE.domestic.swatch} label={t('usageHistory.legend.domestic')} />
        {showEu && <LegendItem swatch={PALETTE.eu.swatch} label={t('usageHistory.legend.eu')} />}
        {budget && <LegendItem swatch={PALETTE.budget.swatch} label={budget.label} line />}
      </ul>
      <div
        ref={canvasRef}
        aria-hidden="true"
        data-testid="usage-chart"
        className="-mx-1"
        style={{ minHeight: height }}
      />
      <button
        type="button"
        aria-controls={tableId}
        aria-expanded={tableShown}
        onClick={() => setTableShown((v) => !v)}
        className="self-start rounded-control px-1 py-2 text-body font-semibold text-fjord-700 hover:underline"
      >
        {tableShown ? t('usageHistory.table.hide') : t('usageHistory.table.show')}
      </button>
      {/* The box is what is visually hidden: a table is as wide as its content whatever its
          width, so `sr-only` on the table itself would widen the page. */}
      <div id={tableId} className={cx(!tableShown && 'sr-only')}>
        <table className="w-full text-left text-caption tabular-nums">
          <caption className={cx(tableShown ? 'pb-2 text-left font-semibold text-mist-700' : '')}>
            {caption}
          </caption>
          <thead>
            <tr className="border-b border-mist-200 text-mist-600">
              <th scope="col" className="py-1.5 pr-2 font-semibold">
                {rowHeader}
              </th>
              <th scope="col" className="py-1.5 pr-2 text-right font-semibold">
                {t('usageHistory.table.domestic')}
              </th>
              {showEu && (
                <th scope="col" className="py-1.5 text-right font-semibold">
                  {t('usageHistory.table.eu')}
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-mist-100 text-mist-900">
            {shown.map((bar) => (
              <tr key={bar.key}>
                <th scope="row" className="py-1.5 pr-2 font-medium">
                  {bar.label}
                </th>
                <td className="py-1.5 pr-2 text-right">{f.data(bar.domesticMb ?? 0)}</td>
                {showEu && <td className="py-1.5 text-right">{f.data(bar.euMb ?? 0)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function LegendItem({ swatch, label, line }: { swatch: string; label: string; line?: boolean }) {
  return (
    <li className="flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className={cx(line ? 'w-4 border-t-2 border-dashed' : 'size-3 rounded-sm', swatch)}
      />
      {label}
    </li>
  );
}
