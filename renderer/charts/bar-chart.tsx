import { labelEvery, niceTicks } from './scale';

export interface BarDatum {
  label: string;
  value: number;
}

const WIDTH = 640;
const PAD = { top: 12, right: 8, bottom: 26, left: 56 };

/** Vertical bars with a value axis; each bar has a tooltip and the chart an accessible summary. */
export function BarChart({
  data,
  height = 220,
  formatValue = String,
  title,
}: {
  data: BarDatum[];
  height?: number;
  formatValue?(value: number): string;
  title: string;
}) {
  const ticks = niceTicks(Math.max(0, ...data.map((d) => d.value)));
  const top = ticks[ticks.length - 1] ?? 1;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = height - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(2, Math.min(42, slot * 0.62));
  const y = (value: number) => PAD.top + plotHeight - (Math.max(0, value) / top) * plotHeight;
  const every = labelEvery(data.length, 8);
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${height}`} role="img" aria-label={title}>
      {ticks.map((tick) => (
        <g key={tick}>
          <line className="grid-line" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
          <text x={PAD.left - 8} y={y(tick) + 4} textAnchor="end">
            {formatValue(tick)}
          </text>
        </g>
      ))}
      {data.map((datum, index) => {
        const x = PAD.left + slot * index + (slot - barWidth) / 2;
        const barTop = y(datum.value);
        return (
          <g key={datum.label}>
            <rect
              className="bar"
              x={x}
              y={barTop}
              width={barWidth}
              height={Math.max(0, PAD.top + plotHeight - barTop)}
              rx={Math.min(4, barWidth / 4)}
            >
              <title>{`${datum.label}: ${formatValue(datum.value)}`}</title>
            </rect>
            {index % every === 0 && (
              <text x={x + barWidth / 2} y={height - 8} textAnchor="middle">
                {datum.label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
