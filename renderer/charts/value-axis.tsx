import type { ReactNode } from 'react';
import { niceTicks } from './scale';

/** Charts scale with their container; this is the width their coordinates are drawn in. */
const CHART_WIDTH = 640;

export interface Padding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface ValueScale {
  ticks: number[];
  plotWidth: number;
  plotHeight: number;
  /** The vertical position of a value; negatives sit on the zero line. */
  y(value: number): number;
}

/** From zero up to a round tick above the largest value, so the tallest mark never touches the top. */
export function valueScale(values: number[], height: number, pad: Padding): ValueScale {
  const ticks = niceTicks(Math.max(0, ...values));
  const top = ticks[ticks.length - 1] ?? 1;
  const plotHeight = height - pad.top - pad.bottom;
  return {
    ticks,
    plotWidth: CHART_WIDTH - pad.left - pad.right,
    plotHeight,
    y: (value) => pad.top + plotHeight - (Math.max(0, value) / top) * plotHeight,
  };
}

/** The chart's SVG with its value gridlines and labels drawn behind `children`. */
export function ValueChart({
  title,
  height,
  pad,
  scale,
  formatValue,
  children,
}: {
  title: string;
  height: number;
  pad: Padding;
  scale: ValueScale;
  formatValue(value: number): string;
  children: ReactNode;
}) {
  return (
    <svg className="chart" viewBox={`0 0 ${CHART_WIDTH} ${height}`} role="img" aria-label={title}>
      {scale.ticks.map((tick) => (
        <g key={tick}>
          <line
            className="grid-line"
            x1={pad.left}
            x2={CHART_WIDTH - pad.right}
            y1={scale.y(tick)}
            y2={scale.y(tick)}
          />
          <text x={pad.left - 8} y={scale.y(tick) + 4} textAnchor="end">
            {formatValue(tick)}
          </text>
        </g>
      ))}
      {children}
    </svg>
  );
}
