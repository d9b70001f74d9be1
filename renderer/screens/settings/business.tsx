import { useState } from 'react';
import { currencyCodes } from '../../../shared/currencies';
import type { Config, ConfigUpdate } from '../../../shared/schemas/config';
import { timeZoneNames } from '../../../shared/time-zone';
import { portal } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import { Button, Card, Field, FormAlert, fieldError, Input, Select, Textarea, useToast } from '../../ui';
import { Loaded } from '../common';
import { LogoSettings } from './logo';
import { SmtpSettings } from './smtp';

export function BusinessSettings() {
  const config = useResource(() => portal.get('/config'), 'config');
  return (
    <Loaded resource={config}>
      {(c) => (
        <div className="stack">
          <BusinessForm config={c} onSaved={config.set} />
          <LogoSettings />
          <SmtpSettings config={c} onSaved={config.set} />
        </div>
      )}
    </Loaded>
  );
}

interface Draft {
  business_name: string;
  business_email: string;
  business_phone: string;
  business_address: string;
  currency: string;
  locale: string;
  timezone: string;
  default_due_days: string;
  default_valid_days: string;
  invoice_prefix: string;
  quote_prefix: string;
  winback_after_days: string;
  winback_subject: string;
  winback_message: string;
  taxes: Array<{ name: string; percent: string }>;
  registrations: Array<{ tax_name: string; number: string }>;
}

function toDraft(c: Config): Draft {
  return {
    business_name: c.business_name,
    business_email: c.business_email ?? '',
    business_phone: c.business_phone ?? '',
    business_address: c.business_address ?? '',
    currency: c.currency,
    locale: c.locale,
    timezone: c.timezone,
    default_due_days: String(c.default_due_days),
    default_valid_days: String(c.default_valid_days),
    invoice_prefix: c.invoice_prefix,
    quote_prefix: c.quote_prefix,
    winback_after_days: String(c.winback_after_days),
    winback_subject: c.winback_subject,
    winback_message: c.winback_message,
    taxes: c.default_taxes.map((t) => ({ name: t.name, percent: String(Number((t.rate * 100).toFixed(4))) })),
    registrations: c.tax_registrations.map((r) => ({ ...r })),
  };
}

function toUpdate(d: Draft): ConfigUpdate {
  const int = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    business_name: d.business_name,
    business_email: d.business_email.trim() || null,
    business_phone: d.business_phone.trim() || null,
    business_address: d.business_address.trim() || null,
    currency: d.currency.trim().toUpperCase(),
    locale: d.locale.trim(),
    timezone: d.timezone.trim(),
    default_due_days: int(d.default_due_days),
    default_valid_days: int(d.default_valid_days),
    invoice_prefix: d.invoice_prefix,
    quote_prefix: d.quote_prefix,
    winback_after_days: int(d.winback_after_days),
    winback_subject: d.winback_subject,
    winback_message: d.winback_message,
    default_taxes: d.taxes.map((t) => ({
      name: t.name.trim(),
      rate: Number((Number(t.percent) / 100).toFixed(6)),
    })),
    tax_registrations: d.registrations,
  };
}

const PARAMS = [
  'business_name',
  'business_email',
  'business_phone',
  'business_address',
  'currency',
  'locale',
  'timezone',
  'default_due_days',
  'default_valid_days',
  'invoice_prefix',
  'quote_prefix',
  'winback_after_days',
  'winback_subject',
  'winback_message',
];

/** A list to choose from that still shows the stored value when an older version saved another. */
const withCurrent = (list: readonly string[], current: string) =>
  list.includes(current) ? list : [current, ...list];
const currencyNames = new Intl.DisplayNames(undefined, { type: 'currency' });
const currencyName = (code: string) => currencyNames.of(code) ?? code;

function BusinessForm({ config, onSaved }: { config: Config; onSaved(config: Config): void }) {
  const { canWrite, refresh } = useSession();
  const toast = useToast();
  const [draft, setDraft] = useState(() => toDraft(config));
  const { busy, error, run } = useSubmit();
  const set =
    (field: keyof Omit<Draft, 'taxes' | 'registrations'>) =>
    (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setDraft({ ...draft, [field]: e.target.value });
  const choose = (name: 'currency' | 'timezone') => (e: React.ChangeEvent<HTMLSelectElement>) =>
    setDraft({ ...draft, [name]: e.target.value });
  const field = (
    name: keyof Omit<Draft, 'taxes' | 'registrations'>,
    label: string,
    extra: { hint?: string; type?: string; span?: boolean } = {},
  ) => (
    <Field
      label={label}
      hint={extra.hint}
      error={fieldError(error, name)}
      className={extra.span ? 'span-2' : undefined}
    >
      <Input type={extra.type ?? 'text'} value={draft[name]} onChange={set(name)} disabled={!canWrite} />
    </Field>
  );

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const saved = await portal.put('/config', { body: toUpdate(draft) });
      onSaved(saved);
      setDraft(toDraft(saved));
      refresh();
      toast.show('Settings saved');
    });
  };
  const taxParams = draft.taxes.flatMap((_, i) => [`default_taxes[${i}].name`, `default_taxes[${i}].rate`]);
  const registrationParams = [
    'tax_registrations',
    ...draft.registrations.flatMap((_, i) => [
      `tax_registrations[${i}].tax_name`,
      `tax_registrations[${i}].number`,
    ]),
  ];
  const setRegistration = (index: number, patch: Partial<Draft['registrations'][number]>) =>
    setDraft({
      ...draft,
      registrations: draft.registrations.map((r, i) => (i === index ? { ...r, ...patch } : r)),
    });

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormAlert error={error} params={[...PARAMS, ...taxParams, ...registrationParams]} />
      <Card title="Business">
        <div className="form-grid">
          {field('business_name', 'Business name')}
          {field('business_email', 'E-mail', { type: 'email' })}
          {field('business_phone', 'Phone')}
          {field('business_address', 'Address')}
        </div>
      </Card>
      <Card title="Money and time">
        <div className="form-grid">
          <Field
            label="Currency"
            hint="Fixed once invoices or quotes exist: their amounts are not converted"
            error={fieldError(error, 'currency')}
          >
            <Select value={draft.currency} onChange={choose('currency')} disabled={!canWrite}>
              {withCurrent(currencyCodes, draft.currency).map((code) => (
                <option key={code} value={code}>
                  {code} — {currencyName(code)}
                </option>
              ))}
            </Select>
          </Field>
          {field('locale', 'Number and date format', { hint: 'e.g. en-CA, fr-CA' })}
          <Field label="Time zone" hint="Where the business works" error={fieldError(error, 'timezone')}>
            <Select value={draft.timezone} onChange={choose('timezone')} disabled={!canWrite}>
              {withCurrent(timeZoneNames(), draft.timezone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replace(/_/g, ' ')}
                </option>
              ))}
            </Select>
          </Field>
          {field('default_due_days', 'Invoices due after (days)', { type: 'number' })}
          {field('default_valid_days', 'Quotes valid for (days)', { type: 'number' })}
          {field('invoice_prefix', 'Invoice number prefix')}
          {field('quote_prefix', 'Quote number prefix')}
        </div>
      </Card>
      <Card
        title="Default taxes"
        actions={
          <Button
            size="sm"
            disabled={!canWrite || draft.taxes.length >= 5}
            onClick={() => setDraft({ ...draft, taxes: [...draft.taxes, { name: '', percent: '' }] })}
          >
            Add tax
          </Button>
        }
      >
        <p className="muted">Added to every new invoice and quote; you can change them on each one.</p>
        <div className="stack">
          {draft.taxes.map((tax, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: taxes are edited in place by position
            <div className="row tax-row" key={index}>
              <Field label="Name" error={fieldError(error, `default_taxes[${index}].name`)} className="grow">
                <Input
                  value={tax.name}
                  disabled={!canWrite}
                  onChange={(e) =>
                    setDraft({
                      ...draft,
                      taxes: draft.taxes.map((t, i) => (i === index ? { ...t, name: e.target.value } : t)),
                    })
                  }
                />
              </Field>
              <Field label="Rate (%)" error={fieldError(error, `default_taxes[${index}].rate`)}>
                <Input
                  className="input input-narrow"
                  inputMode="decimal"
                  value={tax.percent}
                  disabled={!canWrite}
                  onChange={(e) =>
                    setDraft({
                      ...draft,
                      taxes: draft.taxes.map((t, i) => (i === index ? { ...t, percent: e.target.value } : t)),
                    })
                  }
                />
              </Field>
              <Button
                variant="ghost"
                size="sm"
                disabled={!canWrite}
                onClick={() => setDraft({ ...draft, taxes: draft.taxes.filter((_, i) => i !== index) })}
              >
                Remove
              </Button>
            </div>
          ))}
        </div>
      </Card>
      <Card
        title="Tax registration numbers"
        actions={
          <Button
            size="sm"
            disabled={!canWrite || draft.registrations.length >= 10}
            onClick={() =>
              setDraft({ ...draft, registrations: [...draft.registrations, { tax_name: '', number: '' }] })
            }
          >
            Add number
          </Button>
        }
      >
        <p className="muted">
          Printed on every invoice that charges the tax (matched by its name), and shown on the sales tax
          report.
        </p>
        {fieldError(error, 'tax_registrations') && (
          <p className="field-error">{fieldError(error, 'tax_registrations')}</p>
        )}
        <div className="stack">
          {draft.registrations.map((registration, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: numbers are edited in place by position
            <div className="row tax-row" key={index}>
              <Field label="Tax" error={fieldError(error, `tax_registrations[${index}].tax_name`)}>
                <Input
                  className="input input-narrow"
                  value={registration.tax_name}
                  disabled={!canWrite}
                  onChange={(e) => setRegistration(index, { tax_name: e.target.value })}
                />
              </Field>
              <Field
                label="Registration number"
                error={fieldError(error, `tax_registrations[${index}].number`)}
                className="grow"
              >
                <Input
                  value={registration.number}
                  disabled={!canWrite}
                  onChange={(e) => setRegistration(index, { number: e.target.value })}
                />
              </Field>
              <Button
                variant="ghost"
                size="sm"
                disabled={!canWrite}
                onClick={() =>
                  setDraft({ ...draft, registrations: draft.registrations.filter((_, i) => i !== index) })
                }
              >
                Remove
              </Button>
            </div>
          ))}
        </div>
      </Card>
      <Card title="Win-back e-mails">
        <div className="form-grid">
          {field('winback_after_days', 'A customer is lapsed after (days)', { type: 'number' })}
          {field('winback_subject', 'Subject')}
          <Field
            label="Message"
            hint="{customer_name}, {business_name} and {offer} are filled in"
            error={fieldError(error, 'winback_message')}
            className="span-2"
          >
            <Textarea
              value={draft.winback_message}
              onChange={set('winback_message')}
              rows={6}
              disabled={!canWrite}
            />
          </Field>
        </div>
      </Card>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy} write>
          Save settings
        </Button>
      </div>
    </form>
  );
}
