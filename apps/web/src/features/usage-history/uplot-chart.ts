import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/*
 * The one module that imports uPlot (and its stylesheet). The usage history screen loads it
 * with `import()` once it has something to draw, so uPlot is a chunk of its own that no other
 * screen downloads (ADR 0066).
 */

/** Colours of a chart, read from the Tailwind theme by the screen (any CSS colour). */
export interface BarChartColors {
  domestic: string;
  eu: string;
  budget: string;
  axis: string;
  grid: string;
}

export interface BarChartSpec {
  width: number;
  height: number;
  /** What is written under each bar's place on the x axis ('' for none). */
  labels: readonly string[];
  /** The bars whose label is written (indices into `labels`). */
  ticks: readonly number[];
  /** Domestic use per bar in the chart's unit; null draws no bar (a day still to come). */
  domestic: readonly (number | null)[];
  /** EU use per bar, stacked on the domestic bar. */
  eu: readonly (number | null)[];
  /** A dashed line across the chart (the allowance), in the chart's unit; null for none. */
  budget: number | null;
  colors: BarChartColors;
  /** A value of the y axis as text, unit included. */
  formatValue: (value: number) => string;
  font: string;
}

export interface BarChart {
  resize(width: number): void;
  destroy(): void;
}

/** Stacked bars (domestic, EU on top) with an optional dashed allowance line, drawn in `target`. */
export function drawBarChart(target: HTMLElement, spec: BarChartSpec): BarChart {
  const count = spec.labels.length;
  const xs = spec.labels.map((_, i) => i);
  // Stacked by drawing the total in the EU colour first and the domestic part over it.
  const total = spec.domestic.map((d, i) => (d === null ? null : d + (spec.eu[i] ?? 0)));
  const bars = uPlot.paths.bars?.({ size: [0.7, 24], gap: 1 });
  const pxRatio = uPlot.pxRatio;
  const drawBudget = (u: uPlot) => {
    if (spec.budget === null) return;
    const y = Math.round(u.valToPos(spec.budget, 'y', true));
    const { ctx, bbox } = u;
    ctx.save();
    ctx.strokeStyle = spec.colors.budget;
    ctx.lineWidth = 2 * pxRatio;
    ctx.setLineDash([6 * pxRatio, 4 * pxRatio]);
    ctx.beginPath();
    ctx.moveTo(bbox.left, y);
    ctx.lineTo(bbox.left + bbox.width, y);
    ctx.stroke();
    ctx.restore();
  };
  const top = Math.max(1, spec.budget ?? 0, ...total.map((v) => v ?? 0));
  const options: uPlot.Options = {
    width: spec.width,
    height: spec.height,
    legend: { show: false },
    // Less room above the plot than uPlot's default: the legend sits right above it.
    padding: [8, null, null, null],
    cursor: { show: false },
    select: { show: false, left: 0, top: 0, width: 0, height: 0 },
    scales: {
      x: { time: false, range: [-0.5, count - 0.5] },
      // Room above the highest bar or the allowance line, whichever is higher.
      y: { range: () => [0, top * 1.06] },
    },
    axes: [
      {
        stroke: spec.colors.axis,
        font: spec.font,
        grid: { show: false },
        ticks: { show: false },
        size: 24,
        gap: 4,
        splits: () => [...spec.ticks],
        values: (_u, splits) => splits.map((i) => spec.labels[i] ?? ''),
      },
      {
        stroke: spec.colors.axis,
        font: spec.font,
        grid: { stroke: spec.colors.grid, width: 1 },
        ticks: { show: false },
        size: 60,
        gap: 6,
        values: (_u, splits) => splits.map((v) => spec.formatValue(v)),
      },
    ],
    series: [
      {},
      {
        fill: spec.colors.eu,
        stroke: spec.colors.eu,
        width: 0,
        paths: bars,
        points: { show: false },
      },
      {
        fill: spec.colors.domestic,
        stroke: spec.colors.domestic,
        width: 0,
        paths: bars,
        points: { show: false },
      },
    ],
    hooks: { draw: [drawBudget] },
  };
  const chart = new uPlot(options, [xs, total, [...spec.domestic]] as uPlot.AlignedData, target);
  return {
    resize: (width) => chart.setSize({ width, height: spec.height }),
    destroy: () => chart.destroy(),
  };
}
