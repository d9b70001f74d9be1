import { labelEvery } from './scale';
import { useChartWidth, ValueChart, valueScale } from './value-axis';

export interface BarDatum {
  label: string;
  value: number;
}

const PAD = { top: 12, right: 8, bottom: 26, left: 56 };

/** Vertical bars with a value axis; each bar has a tooltip and the chart an accessible summary. */
export function BarChart({
  data,
  height = 220,
  formatValue = String,
  counts = false,
  title,
}: {
  data: BarDatum[];
  height?: number;
  formatValue?(value: number): string;
  /** Whole things (jobs, customers, reviews): the axis never shows a fraction. */
  counts?: boolean;
  title: string;
}) {
  const [chartRef, width] = useChartWidth();
  const scale = valueScale(
    data.map((d) => d.value),
    { width, height },
    PAD,
    counts,
  );
  const { plotHeight, y } = scale;
  const slot = scale.plotWidth / Math.max(1, data.length);
  const barWidth = Math.max(2, Math.min(42, slot * 0.62));
  const every = labelEvery(data.length, Math.min(8, Math.floor(scale.plotWidth / 48)));
  return (
    <ValueChart
      chartRef={chartRef}
      title={title}
      height={height}
      pad={PAD}
      scale={scale}
      formatValue={formatValue}
    >
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
    </ValueChart>
  );
}
