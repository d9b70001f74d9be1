import { useState } from 'react';
import { addDays, todayIn } from '../lib/format';
import { useSession } from '../lib/session';
import { Button, Field, Input } from '../ui';
import { Segmented } from './common';

export type Period = {
  from: string;
  to: string;
};

type Preset = 'this_month' | 'last_month' | 'last_30' | 'this_year' | 'custom';

function presetPeriod(preset: Exclude<Preset, 'custom'>, today: string): Period {
  const [year, month] = today.split('-').map(Number) as [number, number];
  const first = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
  switch (preset) {
    case 'this_month':
      return { from: first(year, month), to: today };
    case 'last_month': {
      const start = month === 1 ? first(year - 1, 12) : first(year, month - 1);
      return { from: start, to: addDays(first(year, month), -1) };
    }
    case 'last_30':
      return { from: addDays(today, -29), to: today };
    case 'this_year':
      return { from: `${year}-01-01`, to: today };
  }
}

/** Preset periods plus a custom range; dates are days in the account's time zone. */
export function usePeriod(initial: Exclude<Preset, 'custom'>) {
  const { session } = useSession();
  const today = todayIn(session.timezone);
  const [preset, setPreset] = useState<Preset>(initial);
  const [period, setPeriod] = useState<Period>(() => presetPeriod(initial, today));
  const [custom, setCustom] = useState<Period>(period);

  const picker = (
    <div className="period-picker">
      <Segmented<Preset>
        label="Period"
        value={preset}
        onChange={(value) => {
          setPreset(value);
          if (value !== 'custom') setPeriod(presetPeriod(value, today));
        }}
        options={[
          { value: 'this_month', label: 'This month' },
          { value: 'last_month', label: 'Last month' },
          { value: 'last_30', label: 'Last 30 days' },
          { value: 'this_year', label: 'This year' },
          { value: 'custom', label: 'Custom' },
        ]}
      />
      {preset === 'custom' && (
        <form
          className="period-picker"
          onSubmit={(event) => {
            event.preventDefault();
            setPeriod(custom);
          }}
        >
          <Field label="From">
            <Input
              type="date"
              value={custom.from}
              onChange={(e) => setCustom({ ...custom, from: e.target.value })}
            />
          </Field>
          <Field label="To">
            <Input
              type="date"
              value={custom.to}
              onChange={(e) => setCustom({ ...custom, to: e.target.value })}
            />
          </Field>
          <Button type="submit">Apply</Button>
        </form>
      )}
    </div>
  );
  return { period, picker };
}
