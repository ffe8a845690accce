// Hand-drawn SVG line charts (docs/status-page.md says why not a library). The SVG stretches to
// its box; strokes keep their width (vector-effect) and every text is HTML beside it, so nothing
// is distorted at any width.
import { h, s } from './dom.ts';
import { ms } from './format.ts';

type Series = Readonly<{ points: readonly (readonly [number, number])[]; kind: string }>;
type Marker = Readonly<{ x: number; y: number; kind: string }>;

type LineChartData = Readonly<{
  series: readonly Series[];
  markers?: readonly Marker[];
  xMin: number;
  xMax: number;
  /** Labels under the plot, left to right (spread evenly). */
  ticks: readonly string[];
  /** What a screen reader hears instead of the drawing. */
  summary: string;
}>;

const W = 600;
const H = 100;

/** 1, 2, 2.5 or 5 times a power of ten, at least `value`. */
export const niceCeil = (value: number): number => {
  if (value <= 0) return 100;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
};

export const drawLineChart = (data: LineChartData): HTMLElement => {
  const values = data.series.flatMap((line) => line.points.map(([, y]) => y));
  const yMax = niceCeil(Math.max(0, ...values) * 1.1);
  const span = Math.max(1, data.xMax - data.xMin);
  const px = (x: number): number => ((x - data.xMin) / span) * W;
  const py = (y: number): number => H - (y / yMax) * H;
  const svg = s(
    'svg',
    { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', role: 'img', 'aria-label': data.summary },
    ...[0, 0.5, 1].map((f) => s('line', { class: 'grid', x1: 0, x2: W, y1: py(yMax * f), y2: py(yMax * f) })),
    ...data.series.map((line) => {
      const only = line.points.length === 1 ? line.points[0] : undefined;
      return only
        ? s('line', {
            class: `series ${line.kind}`,
            x1: px(only[0]) - 3,
            x2: px(only[0]) + 3,
            y1: py(only[1]),
            y2: py(only[1]),
          })
        : s('polyline', {
            class: `series ${line.kind}`,
            points: line.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' '),
          });
    }),
    ...(data.markers ?? []).map((m) =>
      s('line', { class: `marker ${m.kind}`, x1: px(m.x), x2: px(m.x), y1: py(m.y), y2: py(m.y) }),
    ),
  );
  return h(
    'div',
    { class: 'line-chart' },
    h('div', { class: 'plot' }, h('span', { class: 'y-max', 'aria-hidden': 'true' }, ms(yMax)), svg),
    h('div', { class: 'x-axis', 'aria-hidden': 'true' }, ...data.ticks.map((tick) => h('span', {}, tick))),
  );
};
