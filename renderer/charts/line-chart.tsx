import { labelEvery } from './scale';
import { useChartWidth, ValueChart, valueScale } from './value-axis';

export interface LineSeries {
  name: string;
  values: number[];
}

const PAD = { top: 12, right: 12, bottom: 26, left: 56 };

/** One or two series over shared x labels; the first is shaded, points carry tooltips. */
export function LineChart({
  labels,
  series,
  height = 220,
  formatValue = String,
  counts = false,
  title,
}: {
  labels: string[];
  series: LineSeries[];
  height?: number;
  formatValue?(value: number): string;
  /** Whole things (jobs, customers, reviews): the axis never shows a fraction. */
  counts?: boolean;
  title: string;
}) {
  const [chartRef, width] = useChartWidth();
  const scale = valueScale(
    series.flatMap((s) => s.values),
    { width, height },
    PAD,
    counts,
  );
  const { plotWidth, y } = scale;
  const x = (index: number) =>
    PAD.left + (labels.length <= 1 ? plotWidth / 2 : (plotWidth * index) / (labels.length - 1));
  const every = labelEvery(labels.length, Math.min(10, Math.floor(plotWidth / 64)));
  const colors = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)'];
  return (
    <div>
      <ValueChart
        chartRef={chartRef}
        title={title}
        height={height}
        pad={PAD}
        scale={scale}
        formatValue={formatValue}
      >
        {labels.map(
          (label, index) =>
            index % every === 0 && (
              <text key={label} x={x(index)} y={height - 8} textAnchor="middle">
                {label}
              </text>
            ),
        )}
        {series.map((s, seriesIndex) => {
          const points = s.values.map((value, index) => `${x(index)},${y(value)}`).join(' ');
          const color = colors[seriesIndex % colors.length];
          return (
            <g key={s.name}>
              {seriesIndex === 0 && s.values.length > 1 && (
                <polygon
                  className="area"
                  points={`${x(0)},${y(0)} ${points} ${x(s.values.length - 1)},${y(0)}`}
                />
              )}
              <polyline className="line" points={points} style={{ stroke: color }} />
              {s.values.map((value, index) => (
                <circle
                  key={`${s.name}:${labels[index]}`}
                  className="dot"
                  cx={x(index)}
                  cy={y(value)}
                  r={3}
                  style={{ stroke: color }}
                >
                  <title>{`${s.name}, ${labels[index]}: ${formatValue(value)}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </ValueChart>
      {series.length > 1 && (
        <div className="legend">
          {series.map((s, index) => (
            <span key={s.name}>
              <span className="legend-swatch" style={{ background: colors[index % colors.length] }} />
              {s.name}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
