import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { validationError } from '../../lib/errors';

export type FileEncoding = 'utf-8' | 'windows-1252';

/** How a file is read: found once from its first bytes, kept with the upload. */
export interface CsvShape {
  encoding: FileEncoding;
  delimiter: string;
}

const SNIFF_BYTES = 64 * 1024;
/** A longer record is not a customer: refusing it keeps a broken quote from reading the whole file into memory. */
const MAX_RECORD_BYTES = 1024 * 1024;
const DELIMITERS = [',', ';', '\t'];

/**
 * UTF-8 (with or without its byte-order mark) when the first 64 KB decode as UTF-8, else
 * Windows-1252, which is what Excel on Windows saves as "CSV" and which decodes any byte. The
 * delimiter is the one of , ; and tab found most often outside quotes on the header line
 * (Excel in much of Europe writes ;).
 */
export async function sniffShape(file: string): Promise<CsvShape> {
  const handle = await open(file, 'r');
  let sample: Buffer;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    sample = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  let encoding: FileEncoding = 'utf-8';
  try {
    // stream: true leaves a character cut at the sample's end undecoded instead of failing on it.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
  } catch {
    encoding = 'windows-1252';
  }
  const text = new TextDecoder(encoding).decode(sample);
  return { encoding, delimiter: headerDelimiter(text) };
}

function headerDelimiter(text: string): string {
  const counts = new Map(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}

/**
 * Excel's formula guards: a leading apostrophe ('+1 416…, '=A1) or ="…" keep a value from being
 * read as a number or a formula; the value is what is inside.
 */
export function unguard(value: string): string {
  const trimmed = value.trim();
  const wrapped = /^="(.*)"$/s.exec(trimmed);
  if (wrapped) return wrapped[1]!.replace(/""/g, '"').trim();
  if (/^'[=+\-@\d(]/.test(trimmed)) return trimmed.slice(1);
  return trimmed;
}

function decoder(encoding: FileEncoding): Transform {
  const text = new TextDecoder(encoding);
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding, done) {
      done(null, text.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, text.decode());
    },
  });
}

export interface CsvRecord {
  /** The record's row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  values: string[];
}

/**
 * The file's records one at a time, streamed: memory holds one chunk and one record, whatever
 * the file's size. csv-parse handles quoted separators, doubled quotes and line breaks inside
 * quotes.
 */
export async function* readRecords(file: string, shape: CsvShape): AsyncGenerator<CsvRecord> {
  const source = createReadStream(file, { highWaterMark: 256 * 1024 });
  const parser = source.pipe(decoder(shape.encoding)).pipe(
    parse({
      delimiter: shape.delimiter,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  let row = 0;
  try {
    for await (const values of parser as AsyncIterable<string[]>) {
      row += 1;
      yield { row, values: values.map(unguard) };
    }
  } catch (error) {
    throw validationError(
      `The file cannot be read as CSV after row ${row}: ${(error as Error).message}`,
      'file',
    );
  } finally {
    source.destroy();
  }
}

/** The header row, and the first data rows for the preview. */
export async function readHead(file: string, shape: CsvShape, rows: number): Promise<CsvRecord[]> {
  const head: CsvRecord[] = [];
  for await (const record of readRecords(file, shape)) {
    head.push(record);
    if (head.length > rows) break;
  }
  if (head.length === 0)
    throw validationError('The file is empty: it needs a header row and data rows', 'file');
  return head;
}

/** The file's data rows (records after the header), read through once: what a run's progress counts to. */
export async function countDataRows(file: string, shape: CsvShape): Promise<number> {
  let records = 0;
  for await (const _record of readRecords(file, shape)) records += 1;
  return Math.max(records - 1, 0);
}
