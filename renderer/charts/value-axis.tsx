import { type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { niceTicks } from './scale';

/** The width a chart is drawn in before it has been measured. */
const FALLBACK_WIDTH = 640;

/**
 * The chart's real width in CSS pixels, so its coordinates are pixels and its labels keep the
 * stylesheet's size on a phone and on a wide screen alike (a scaled viewBox would shrink or blow
 * them up with the card).
 */
export function useChartWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.round(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

export interface Padding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export interface ValueScale {
  width: number;
  ticks: number[];
  plotWidth: number;
  plotHeight: number;
  /** The vertical position of a value; negatives sit on the zero line. */
  y(value: number): number;
}

/**
 * From zero up to a round tick above the largest value, so the tallest mark never touches the top;
 * `whole` for counts, whose ticks are whole numbers.
 */
export function valueScale(
  values: number[],
  size: { width: number; height: number },
  pad: Padding,
  whole = false,
): ValueScale {
  const ticks = niceTicks(Math.max(0, ...values), 4, whole);
  const top = ticks[ticks.length - 1] ?? 1;
  const plotHeight = size.height - pad.top - pad.bottom;
  return {
    width: size.width,
    ticks,
    plotWidth: size.width - pad.left - pad.right,
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
  chartRef,
  children,
}: {
  title: string;
  chartRef: RefObject<HTMLDivElement | null>;
  height: number;
  pad: Padding;
  scale: ValueScale;
  formatValue(value: number): string;
  children: ReactNode;
}) {
  return (
    <div ref={chartRef} className="chart-box">
      <svg className="chart" viewBox={`0 0 ${scale.width} ${height}`} role="img" aria-label={title}>
        {scale.ticks.map((tick) => (
          <g key={tick}>
            <line
              className="grid-line"
              x1={pad.left}
              x2={scale.width - pad.right}
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
    </div>
  );
}
