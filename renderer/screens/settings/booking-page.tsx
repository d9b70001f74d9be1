import { useState } from 'react';
import type { BookingPageSettings, BookingPageUpdate } from '../../../shared/schemas/booking-page';
import type { Config } from '../../../shared/schemas/config';
import { portal } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import { Button, Card, Checkbox, Field, FormAlert, fieldError, Input, Select, useToast } from '../../ui';
import { Loaded } from '../common';
import '../../styles/booking-page.css';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type HoursDraft = BookingPageSettings['hours'][number] & { key: number };

let nextKey = 0;
const withKeys = (hours: BookingPageSettings['hours']): HoursDraft[] =>
  hours.map((w) => ({ ...w, key: nextKey++ }));

interface ServiceDraft {
  id?: string;
  name: string;
  duration_minutes: string;
  price: string;
}

interface PageAndConfig {
  page: BookingPageSettings;
  config: Config;
}

export function BookingPageSettingsScreen() {
  const settings = useResource(async (): Promise<PageAndConfig> => {
    const [page, config] = await Promise.all([portal.get('/booking-page'), portal.get('/config')]);
    return { page, config };
  }, 'booking-page-settings');
  return <Loaded resource={settings}>{(s) => <BookingPageForm loaded={s} onSaved={settings.set} />}</Loaded>;
}

const toDrafts = (page: BookingPageSettings): ServiceDraft[] =>
  page.services.map((s) => ({
    id: s.id,
    name: s.name,
    duration_minutes: String(s.duration_minutes),
    price: s.price === null ? '' : String(s.price),
  }));

/** A number as typed; what is not one goes as text, so the server names the field. */
const numberOrText = (value: string): number =>
  value.trim() && Number.isFinite(Number(value)) ? Number(value) : (value as unknown as number);

function BookingPageForm({
  loaded,
  onSaved,
}: {
  loaded: PageAndConfig;
  onSaved(loaded: PageAndConfig): void;
}) {
  const { canWrite } = useSession();
  const toast = useToast();
  const [enabled, setEnabled] = useState(loaded.page.enabled);
  const [intro, setIntro] = useState(loaded.page.intro ?? '');
  const [services, setServices] = useState(toDrafts(loaded.page));
  const [hours, setHours] = useState(withKeys(loaded.page.hours));
  const [askForReviews, setAskForReviews] = useState(loaded.config.ask_for_reviews);
  const [ownerAlerts, setOwnerAlerts] = useState(loaded.config.owner_alerts);
  const { busy, error, run } = useSubmit();

  const setService = (i: number, patch: Partial<ServiceDraft>) =>
    setServices(services.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const setWindow = (i: number, patch: Partial<HoursDraft>) =>
    setHours(hours.map((w, j) => (j === i ? { ...w, ...patch } : w)));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const update: BookingPageUpdate = {
      enabled,
      intro: intro.trim() || null,
      services: services.map((s) => ({
        ...(s.id && { id: s.id }),
        name: s.name,
        duration_minutes: numberOrText(s.duration_minutes),
        price: s.price.trim() ? numberOrText(s.price) : null,
      })),
      hours: hours.map(({ key: _key, ...w }) => w),
    };
    return run(async () => {
      const page = await portal.put('/booking-page', { body: update });
      const config = await portal.put('/config', {
        body: { ask_for_reviews: askForReviews, owner_alerts: ownerAlerts },
      });
      onSaved({ page, config });
      setServices(toDrafts(page));
      setHours(withKeys(page.hours));
      toast.show('Booking page settings saved');
    });
  };

  const serviceParams = services.flatMap((_, i) =>
    ['name', 'duration_minutes', 'price', 'id'].map((f) => `services[${i}].${f}`),
  );
  const hourParams = hours.flatMap((_, i) => [`hours[${i}]`, `hours[${i}].from`, `hours[${i}].to`]);

  return (
    <form
      className="stack booking-page-settings"
      onSubmit={submit}
      noValidate
      aria-label="Booking page settings"
    >
      <FormAlert error={error} params={['services', 'hours', 'intro', ...serviceParams, ...hourParams]} />
      <Card title="Public booking page">
        <div className="stack">
          <p className="muted">
            New customers ask for a visit from your booking page: they pick a service and up to three times
            within your hours, and the request waits for you under Bookings. Times are in your business’s time
            zone ({loaded.config.timezone}).
          </p>
          <Checkbox
            label="Take booking requests on my public page"
            checked={enabled}
            disabled={!canWrite}
            onChange={(e) => setEnabled(e.target.checked)}
          />
          <Field label="A line at the top of the page" hint="Optional" error={fieldError(error, 'intro')}>
            <Input
              value={intro}
              disabled={!canWrite}
              onChange={(e) => setIntro(e.target.value)}
              maxLength={300}
            />
          </Field>
        </div>
      </Card>
      <Card title="Services offered">
        <div className="stack">
          <p className="muted">
            The client hub’s “request work” form lists them too. Leave the price empty to quote it.
          </p>
          {fieldError(error, 'services') && <p className="field-error">{fieldError(error, 'services')}</p>}
          {services.map((s, i) => (
            <fieldset key={s.id ?? `new-${i}`} className="service-row" aria-label={`Service ${i + 1}`}>
              <Field label="Service" error={fieldError(error, `services[${i}].name`)}>
                <Input
                  value={s.name}
                  disabled={!canWrite}
                  onChange={(e) => setService(i, { name: e.target.value })}
                />
              </Field>
              <Field label="Minutes" error={fieldError(error, `services[${i}].duration_minutes`)}>
                <Input
                  inputMode="numeric"
                  value={s.duration_minutes}
                  disabled={!canWrite}
                  onChange={(e) => setService(i, { duration_minutes: e.target.value })}
                />
              </Field>
              <Field
                label={`Price (${loaded.config.currency})`}
                error={fieldError(error, `services[${i}].price`)}
              >
                <Input
                  inputMode="decimal"
                  value={s.price}
                  placeholder="On a quote"
                  disabled={!canWrite}
                  onChange={(e) => setService(i, { price: e.target.value })}
                />
              </Field>
              <Button
                variant="ghost"
                size="sm"
                write
                onClick={() => setServices(services.filter((_, j) => j !== i))}
                aria-label={`Remove ${s.name || `service ${i + 1}`}`}
              >
                Remove
              </Button>
            </fieldset>
          ))}
          <div>
            <Button
              variant="secondary"
              size="sm"
              write
              onClick={() => setServices([...services, { name: '', duration_minutes: '60', price: '' }])}
            >
              Add a service
            </Button>
          </div>
        </div>
      </Card>
      <Card title="Hours offered">
        <div className="stack">
          {fieldError(error, 'hours') && <p className="field-error">{fieldError(error, 'hours')}</p>}
          {hours.length === 0 && (
            <p className="muted">No hours yet: add the days and times you take visits.</p>
          )}
          {hours.map((w, i) => (
            <fieldset key={w.key} className="hours-row" aria-label={`Hours ${i + 1}`}>
              <Field label="Day" error={fieldError(error, `hours[${i}]`)}>
                <Select
                  value={String(w.weekday)}
                  disabled={!canWrite}
                  onChange={(e) => setWindow(i, { weekday: Number(e.target.value) })}
                >
                  {WEEKDAYS.map((day, d) => (
                    <option key={day} value={d + 1}>
                      {day}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="From" error={fieldError(error, `hours[${i}].from`)}>
                <Input
                  type="time"
                  value={w.from}
                  disabled={!canWrite}
                  onChange={(e) => setWindow(i, { from: e.target.value })}
                />
              </Field>
              <Field label="To" error={fieldError(error, `hours[${i}].to`)}>
                <Input
                  type="time"
                  value={w.to}
                  disabled={!canWrite}
                  onChange={(e) => setWindow(i, { to: e.target.value })}
                />
              </Field>
              <Button
                variant="ghost"
                size="sm"
                write
                onClick={() => setHours(hours.filter((_, j) => j !== i))}
                aria-label={`Remove ${WEEKDAYS[w.weekday - 1]} ${w.from}–${w.to}`}
              >
                Remove
              </Button>
            </fieldset>
          ))}
          <div className="row">
            <Button
              variant="secondary"
              size="sm"
              write
              onClick={() => setHours([...hours, ...withKeys([{ weekday: 1, from: '09:00', to: '17:00' }])])}
            >
              Add hours
            </Button>
            {hours.length === 0 && (
              <Button
                variant="ghost"
                size="sm"
                write
                onClick={() =>
                  setHours(
                    withKeys([1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: '08:00', to: '17:00' }))),
                  )
                }
              >
                Weekdays 8:00–17:00
              </Button>
            )}
          </div>
        </div>
      </Card>
      <Card title="After a visit, and when customers act">
        <div className="stack">
          <Checkbox
            label="Ask customers for a review after each completed visit (one e-mail)"
            checked={askForReviews}
            disabled={!canWrite}
            onChange={(e) => setAskForReviews(e.target.checked)}
          />
          <Checkbox
            label={`E-mail me when a customer acts${loaded.config.business_email ? ` (to ${loaded.config.business_email})` : ''}`}
            checked={ownerAlerts}
            disabled={!canWrite}
            onChange={(e) => setOwnerAlerts(e.target.checked)}
          />
          {ownerAlerts && !loaded.config.business_email && (
            <p className="muted">Add your business e-mail under Settings › Business to receive these.</p>
          )}
        </div>
      </Card>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy} write>
          Save booking page
        </Button>
      </div>
    </form>
  );
}
