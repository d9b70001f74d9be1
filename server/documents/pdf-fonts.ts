import { createRequire } from 'node:module';
import path from 'node:path';
import type { Font } from 'fontkit';
import type PDFDocument from 'pdfkit';

/**
 * The fonts a PDF is set in. DejaVu Sans covers Latin, Greek and Cyrillic; it has no Chinese,
 * Japanese or Korean, which Vancouver's customers are often named in. Runs of those scripts switch
 * to Noto Sans CJK (SIL OFL, from npm): the Simplified Chinese cut holds every unified ideograph and
 * both kana, the Korean cut the Hangul syllables. pdfkit embeds only the glyphs a document uses, so
 * a PDF with a Korean name grows by a few kilobytes, not by the font's megabytes.
 */
export type Weight = 'regular' | 'bold';
type Face = 'body' | 'han' | 'hangul';
type Doc = InstanceType<typeof PDFDocument>;
type TextOptions = PDFKit.Mixins.TextOptions;

const require = createRequire(import.meta.url);
/** The font packages export only their index (dist/), not their files. */
const packageFile = (pkg: string, file: string) => path.join(path.dirname(require.resolve(pkg)), '..', file);

const FILES: Record<Face, Record<Weight, string>> = {
  body: {
    regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  },
  han: {
    regular: packageFile('@embedpdf/fonts-sc', 'fonts/NotoSansHans-Regular.otf'),
    bold: packageFile('@embedpdf/fonts-sc', 'fonts/NotoSansHans-Bold.otf'),
  },
  hangul: {
    regular: packageFile('@embedpdf/fonts-kr', 'fonts/NotoSansKR-Regular.otf'),
    bold: packageFile('@embedpdf/fonts-kr', 'fonts/NotoSansKR-Bold.otf'),
  },
};

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7ff]/u;
/** Ideographs, kana, bopomofo, CJK punctuation and full-width forms. */
const HAN =
  /[\u2e80-\u2fdf\u3000-\u312f\u3190-\u31ff\u3200-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}]/u;

function faceOf(char: string): Face | null {
  if (HANGUL.test(char)) return 'hangul';
  if (HAN.test(char)) return 'han';
  // Spaces belong to whichever run they sit in, so "山田 花子" stays one run.
  return /\s/.test(char) ? null : 'body';
}

/** The text cut into runs that one face prints. */
export function scriptRuns(text: string): Array<{ face: Face; text: string }> {
  const runs: Array<{ face: Face; text: string }> = [];
  for (const char of text) {
    const last = runs.at(-1);
    const face = faceOf(char) ?? last?.face ?? 'body';
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs.length > 0 ? runs : [{ face: 'body', text }];
}

const fontName = (face: Face, weight: Weight) => `${face}-${weight}`;

/**
 * Parsed once per process, and only once a document needs the face: parsing the CJK fonts' glyph
 * tables for every document took most of a CJK PDF's time (a warm one renders in about half).
 */
const parsed = new Map<string, Font>();
function parsedFont(face: Face, weight: Weight): Font {
  const file = FILES[face][weight];
  let font = parsed.get(file);
  if (!font) {
    // Required here, not imported: fontkit loads with pdfkit, at the first PDF, not at start-up.
    font = (require('fontkit') as typeof import('fontkit')).openSync(file) as Font;
    parsed.set(file, font);
  }
  return font;
}

const registered = new WeakMap<Doc, Set<string>>();
function setFont(doc: Doc, face: Face, weight: Weight): void {
  const name = fontName(face, weight);
  let names = registered.get(doc);
  if (!names) {
    names = new Set();
    registered.set(doc, names);
  }
  if (!names.has(name)) {
    // pdfkit takes a parsed fontkit font as a source too (PDFFontFactory.open); its types only list files and bytes.
    const source = face === 'body' ? FILES.body[weight] : (parsedFont(face, weight) as unknown as Buffer);
    doc.registerFont(name, source);
    names.add(name);
  }
  doc.font(name);
}

/**
 * `doc.text` with each run in a face that has its glyphs: the runs are chained with pdfkit's
 * `continued`, so wrapping and alignment treat them as one paragraph.
 */
export function write(
  doc: Doc,
  weight: Weight,
  text: string,
  at: { x: number; y: number } | null,
  options: TextOptions = {},
): void {
  const runs = scriptRuns(text);
  runs.forEach((run, i) => {
    setFont(doc, run.face, weight);
    const runOptions = { ...options, continued: i < runs.length - 1 };
    if (i === 0 && at) doc.text(run.text, at.x, at.y, runOptions);
    else doc.text(run.text, runOptions);
  });
  setFont(doc, 'body', weight);
}

/** The height `write` will take: measured in every face the text uses, the tallest wins. */
export function heightOf(doc: Doc, weight: Weight, text: string, options: TextOptions): number {
  const faces = new Set(scriptRuns(text).map((run) => run.face));
  let height = 0;
  for (const face of faces) {
    setFont(doc, face, weight);
    height = Math.max(height, doc.heightOfString(text, options));
  }
  setFont(doc, 'body', weight);
  return height;
}

/** Sets the body face, for documents that start writing. */
export function startFonts(doc: Doc): void {
  setFont(doc, 'body', 'regular');
}
