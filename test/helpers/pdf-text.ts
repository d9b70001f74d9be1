import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const standardFontDataUrl = `${path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

/** The text of every page, each page's items joined by spaces and whitespace collapsed (the bytes stay usable). */
export async function pdfPages(bytes: ArrayBuffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes.slice(0)), standardFontDataUrl }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
    pages.push(text.replace(/\s+/g, ' '));
  }
  await pdf.destroy();
  return pages;
}

/** The sizes (width x height) of the images a PDF embeds: its image XObjects' dictionaries are plain text. */
export function embeddedImages(bytes: ArrayBuffer): string[] {
  const text = Buffer.from(bytes).toString('latin1');
  return [...text.matchAll(/<<[^>]*\/Subtype \/Image[^>]*>>/g)].map((m) => {
    const size = (key: string) => new RegExp(`/${key} (\\d+)`).exec(m[0])?.[1];
    return `${size('Width')}x${size('Height')}`;
  });
}
