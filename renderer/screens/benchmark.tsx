import type { BenchmarkFigure } from '../../shared/schemas/overview';
import { portal } from '../lib/api';
import type { Formatters } from '../lib/format';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Card, PageHeader, Toolbar } from '../ui';
import { Loaded } from './common';
import { usePeriod } from './period';

function formatFigure(figure: BenchmarkFigure, value: number | null, format: Formatters): string {
  if (value === null) return '—';
  switch (figure.unit) {
    case 'money':
      return format.money(value);
    case 'rate':
      return format.percent(value);
    case 'days':
      return `${value.toFixed(1)} days`;
    case 'rating':
      return `${value.toFixed(2)} ★`;
    case 'per_week':
      return `${value.toFixed(1)} / week`;
  }
}

/** This period against the business's own past: a bar for each, so the gap reads at a glance. */
function FigureCard({ figure }: { figure: BenchmarkFigure }) {
  const format = useFormat();
  const max = Math.max(figure.value ?? 0, figure.baseline ?? 0) || 1;
  const percent = figure.change?.percent;
  return (
    <Card title={figure.label}>
      <div className="stat-value">{formatFigure(figure, figure.value, format)}</div>
      <p className="muted">
        Usual: {formatFigure(figure, figure.baseline, format)}
        {figure.direction && percent !== null && percent !== undefined && (
          <span
            className={
              figure.direction === 'better'
                ? ' change-better'
                : figure.direction === 'worse'
                  ? ' change-worse'
                  : ''
            }
          >
            {' '}
            · {percent >= 0 ? '+' : ''}
            {format.percent(percent)} ({figure.direction})
          </span>
        )}
      </p>
      <svg
        className="chart"
        viewBox="0 0 300 44"
        role="img"
        aria-label={`${figure.label}: this period against the usual`}
      >
        <text x="0" y="14">
          Now
        </text>
        <rect x="44" y="4" height="14" rx="3" width={((figure.value ?? 0) / max) * 250} className="bar" />
        <text x="0" y="38">
          Usual
        </text>
        <rect
          x="44"
          y="28"
          height="14"
          rx="3"
          width={((figure.baseline ?? 0) / max) * 250}
          className="bar bar-2"
        />
      </svg>
    </Card>
  );
}

export function Benchmark() {
  const format = useFormat();
  const { period, picker } = usePeriod('last_30');
  const benchmark = useResource(
    () => portal.get('/benchmark', { params: { query: period } }),
    `${period.from}:${period.to}`,
  );
  return (
    <>
      <PageHeader
        title="Benchmark"
        subtitle="This period against your own usual: the 6 periods of the same length before it."
      />
      <Toolbar>{picker}</Toolbar>
      <Loaded resource={benchmark}>
        {(b) => (
          <>
            <p className="muted">
              {format.date(b.from)} – {format.date(b.to)} compared with {format.date(b.baseline_from)} –{' '}
              {format.date(b.baseline_to)}
            </p>
            <div className="grid grid-2">
              {b.figures.map((figure) => (
                <FigureCard key={figure.key} figure={figure} />
              ))}
            </div>
          </>
        )}
      </Loaded>
    </>
  );
}
