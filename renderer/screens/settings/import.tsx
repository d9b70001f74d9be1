import { useEffect, useState } from 'react';
import type {
  CustomerImport,
  ImportColumns,
  ImportField,
  ImportSummary,
  PreviewRow,
} from '../../../shared/schemas/customer-import';
import { IMPORT_FIELDS } from '../../../shared/schemas/customer-import';
import { portal, portalUrl, upload as uploadBody } from '../../lib/api';
import { count } from '../../lib/plural';
import { useSubmit } from '../../lib/use-submit';
import { Button, Card, Checkbox, ErrorNotice, Field, Input, LinkButton, Notice, Select } from '../../ui';
import '../../styles/import.css';

const PRESET_NAMES = {
  jobber: 'a Jobber client export',
  housecall_pro: 'a Housecall Pro customer export',
  quickbooks_online: 'a QuickBooks Online customer list',
} as const;

const FIELD_LABELS: Record<ImportField, string> = {
  name: 'Name',
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  email: 'E-mail',
  phone: 'Phone',
  mobile_phone: 'Mobile phone',
  billing_street: 'Billing street',
  billing_street2: 'Billing street, line 2',
  billing_city: 'Billing city',
  billing_region: 'Billing state/province',
  billing_postal_code: 'Billing postal code',
  billing_country: 'Billing country',
  street: 'Place: street',
  unit: 'Place: unit',
  city: 'Place: city',
  region: 'Place: state/province',
  postal_code: 'Place: postal code',
  country: 'Place: country',
  property_label: 'Place: label',
  access_notes: 'Place: access notes',
  tags: 'Tags',
  notes: 'Notes',
};

const uploadFile = (file: File) =>
  uploadBody('/customer-imports', { params: { query: { file_name: file.name } } }, file, 'text/csv');

function Summary({ summary, dryRun }: { summary: ImportSummary; dryRun: boolean }) {
  const verb = dryRun ? 'will be' : 'were';
  return (
    <ul className="import-counts" aria-label={dryRun ? 'Dry run' : 'Import result'}>
      <li>
        <strong>{count(summary.added, 'customer', 'customers')}</strong> {verb} added
      </li>
      <li>
        <strong>{summary.updated}</strong> {verb} updated
      </li>
      <li>
        <strong>{summary.skipped}</strong> {verb} skipped (already there)
      </li>
      <li>
        <strong>{count(summary.rejected, 'row', 'rows')}</strong> cannot be imported
      </li>
    </ul>
  );
}

function Rejected({ upload, summary }: { upload: CustomerImport; summary: ImportSummary }) {
  if (!summary.rejected) return null;
  return (
    <div className="import-rejected">
      <div className="import-rejected-rows">
        <table className="table" aria-label="Rejected rows">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Why it cannot be imported</th>
            </tr>
          </thead>
          <tbody>
            {summary.rejected_rows.map((r) => (
              <tr key={r.row}>
                <td>{r.row}</td>
                <td>{r.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LinkButton href={portalUrl(`/customer-imports/${upload.id}/rejected.csv`)} download>
        Download rejected rows (CSV)
      </LinkButton>
    </div>
  );
}

function Preview({ rows }: { rows: PreviewRow[] }) {
  return (
    <table className="table import-preview" aria-label="Preview">
      <thead>
        <tr>
          {['Row', 'Name', 'E-mail', 'Phone', 'Place', 'Tags', 'Notes'].map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ row, customer, error }) => (
          <tr key={row}>
            <td>{row}</td>
            {customer ? (
              <>
                <td>{customer.name}</td>
                <td>{customer.email ?? '—'}</td>
                <td>{customer.phone ?? '—'}</td>
                <td>
                  {customer.property
                    ? [customer.property.label, customer.property.street, customer.property.city]
                        .filter(Boolean)
                        .join(', ')
                    : '—'}
                </td>
                <td>{customer.tags.join(', ') || '—'}</td>
                <td>{customer.notes.join(' / ') || '—'}</td>
              </>
            ) : (
              <td colSpan={6} className="import-error">
                Cannot be imported: {error}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const POLL_MS = 400;

const PHASE_NAMES = { dry_run: 'Dry run', import: 'Import', undo: 'Undo' } as const;
const STATE_NAMES = { running: 'running', succeeded: 'done', failed: 'failed, nothing kept' } as const;

/** The last run: how far it got of the file's rows, and how it ended. */
function RunProgress({ run }: { run: NonNullable<CustomerImport['run']> }) {
  return (
    <div className="import-progress" data-state={run.state}>
      <progress max={Math.max(run.rows_total, 1)} value={run.rows_done} aria-label="Progress" />
      <span className="muted">
        {PHASE_NAMES[run.phase]}: {run.rows_done.toLocaleString()} of {count(run.rows_total, 'row', 'rows')}
        {run.phase === 'undo' ? ' taken back' : ' read'} ({STATE_NAMES[run.state]})
      </span>
    </div>
  );
}

/** Settings > Import: upload, mapping, preview, dry run, import with progress, undo (docs/import-export.md). */
export function ImportSettings() {
  const [upload, setUpload] = useState<CustomerImport | null>(null);
  const [columns, setColumns] = useState<ImportColumns>([]);
  const [preview, setPreview] = useState<PreviewRow[]>([]);
  const [onMatch, setOnMatch] = useState<'skip' | 'update'>('skip');
  const [sendEvents, setSendEvents] = useState(false);
  const { running: busy, error, setError, run } = useSubmit<'upload' | 'dry_run' | 'import' | 'undo'>();

  useEffect(() => {
    if (upload?.status !== 'uploaded' || !columns.length) return;
    let current = true;
    portal
      .post('/customer-imports/{import_id}/preview', {
        params: { path: { import_id: upload.id } },
        body: { columns },
      })
      .then(
        (answer) => current && setPreview(answer.rows),
        (failure: unknown) => current && setError(failure),
      );
    return () => {
      current = false;
    };
  }, [upload, columns, setError]);

  const act = (kind: 'upload' | 'dry_run' | 'import' | 'undo', work: () => Promise<CustomerImport>) =>
    run(async () => {
      let next = await work();
      setUpload(next);
      if (kind === 'upload') setColumns(next.columns);
      // A run goes on in the background on the server: follow it until it ends, its progress shown meanwhile.
      while (next.run?.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const id = next.id;
        next = await portal.get('/customer-imports/{import_id}', { params: { path: { import_id: id } } });
        setUpload(next);
      }
      if (next.run?.state === 'failed' && next.run.error) throw new Error(next.run.error.message);
    }, kind);

  const body = { columns, on_match: onMatch, send_events: sendEvents };
  const byId = (id: string) => ({ params: { path: { import_id: id } }, body });
  const start = (file: File | undefined) => file && act('upload', () => uploadFile(file));

  return (
    <Card title="Import customers">
      <p className="muted">
        Bring your client list from Jobber, Housecall Pro, QuickBooks Online or any spreadsheet saved as CSV.
        Nothing is saved until you import, and an import can be undone as long as nobody has changed those
        customers since.
      </p>
      <div className="row">
        <Field label="CSV file">
          <Input type="file" accept=".csv,text/csv" onChange={(e) => start(e.target.files?.[0])} />
        </Field>
        {busy === 'upload' && <span className="muted">Reading the file…</span>}
      </div>
      {error !== undefined && <ErrorNotice error={error} />}
      {upload && (
        <>
          <Notice tone="info">
            {upload.file_name}: {upload.preset ? `recognised as ${PRESET_NAMES[upload.preset]}; ` : ''}
            {upload.headers.length} columns, {upload.encoding === 'utf-8' ? 'UTF-8' : 'Windows-1252'},
            separated by {upload.delimiter === '\t' ? 'tabs' : `“${upload.delimiter}”`}.
          </Notice>
          {upload.status === 'uploaded' && (
            <>
              <h3>Columns</h3>
              <section className="import-mapping" aria-label="Column mapping">
                {upload.headers.map((header, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a file's columns are fixed, and two may share a header
                  <Field key={index} label={header || `Column ${index + 1}`}>
                    <Select
                      value={columns[index] ?? ''}
                      onChange={(e) => {
                        const next = [...columns];
                        next[index] = (e.target.value || null) as ImportField | null;
                        setColumns(next);
                      }}
                    >
                      <option value="">Leave out</option>
                      {IMPORT_FIELDS.map((f) => (
                        <option key={f} value={f}>
                          {FIELD_LABELS[f]}
                        </option>
                      ))}
                    </Select>
                  </Field>
                ))}
              </section>
              <h3>The first rows, as they will be saved</h3>
              <Preview rows={preview} />
              <div className="row">
                <Field label="When a row matches a customer you have (same e-mail, or same name and phone)">
                  <Select value={onMatch} onChange={(e) => setOnMatch(e.target.value as 'skip' | 'update')}>
                    <option value="skip">Skip the row</option>
                    <option value="update">Update the customer</option>
                  </Select>
                </Field>
                <Checkbox
                  label="Send customer.created to my webhooks for each new customer"
                  checked={sendEvents}
                  onChange={(e) => setSendEvents(e.target.checked)}
                />
              </div>
              <div className="row">
                <Button
                  busy={busy === 'dry_run'}
                  onClick={() =>
                    act('dry_run', () =>
                      portal.post('/customer-imports/{import_id}/dry-run', byId(upload.id)),
                    )
                  }
                >
                  Dry run
                </Button>
                <Button
                  variant="primary"
                  write
                  disabled={!upload.dry_run}
                  busy={busy === 'import'}
                  onClick={() =>
                    act('import', () => portal.post('/customer-imports/{import_id}/import', byId(upload.id)))
                  }
                >
                  Import
                </Button>
              </div>
            </>
          )}
          {upload.run && <RunProgress run={upload.run} />}
          {upload.status === 'uploaded' && upload.dry_run && (
            <section aria-label="Dry run result">
              <h3>Dry run: nothing was saved</h3>
              <Summary summary={upload.dry_run} dryRun />
              <Rejected upload={upload} summary={upload.dry_run} />
            </section>
          )}
          {upload.status !== 'uploaded' && upload.result && (
            <section aria-label="Import result">
              <h3>{upload.status === 'undone' ? 'Import undone' : 'Imported'}</h3>
              {upload.status === 'undone' ? (
                <Notice tone="success">The customers are as they were before this import.</Notice>
              ) : (
                <Summary summary={upload.result} dryRun={false} />
              )}
              <Rejected upload={upload} summary={upload.result} />
              {upload.status === 'imported' && (
                <Button
                  write
                  disabled={!upload.undoable}
                  title={upload.undoable ? undefined : 'Some of these customers changed since the import'}
                  busy={busy === 'undo'}
                  onClick={() =>
                    act('undo', () =>
                      portal.post('/customer-imports/{import_id}/undo', {
                        params: { path: { import_id: upload.id } },
                      }),
                    )
                  }
                >
                  Undo import
                </Button>
              )}
            </section>
          )}
        </>
      )}
    </Card>
  );
}
