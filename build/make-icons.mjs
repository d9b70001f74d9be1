// Draws Shopdesk's icon (a clipboard with a check mark on a blue rounded square) with plain Node, so the
// icon is reproducible from source: `node build/make-icons.mjs` writes build/icon.png (512 px, the app
// icon electron-builder turns into .icns/.ico) and build/tray-icon.png (32 px, the tray / menu-bar icon).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// Signed distances in the 512-unit design space: negative inside a shape.
function roundedBox(x, y, cx, cy, hw, hh, r) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function segment(x, y, ax, ay, bx, by, halfWidth) {
  const px = x - ax;
  const py = y - ay;
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - dx * t, py - dy * t) - halfWidth;
}

const hex = (value) => [1, 3, 5].map((i) => Number.parseInt(value.slice(i, i + 2), 16));
const mix = (a, b, t) => a.map((channel, i) => channel + (b[i] - channel) * t);

const TOP = hex('#3b82f6');
const BOTTOM = hex('#1d4ed8');
const PAPER = hex('#ffffff');
const CLIP = hex('#bfdbfe');
const CHECK = hex('#2563eb');

/** The layers from back to front: [distance, colour] at a point of the design space. */
function layers(x, y) {
  return [
    [roundedBox(x, y, 256, 256, 240, 240, 104), mix(TOP, BOTTOM, y / 512)],
    [roundedBox(x, y, 256, 276, 124, 152, 30), PAPER],
    [roundedBox(x, y, 256, 124, 58, 26, 14), CLIP],
    [Math.min(segment(x, y, 194, 282, 238, 326, 19), segment(x, y, 238, 326, 322, 226, 19)), CHECK],
  ];
}

function draw(size) {
  const unit = 512 / size;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      const x = (px + 0.5) * unit;
      const y = (py + 0.5) * unit;
      let colour = [0, 0, 0];
      let alpha = 0;
      for (const [distance, layerColour] of layers(x, y)) {
        // Coverage of this pixel by the shape, which anti-aliases the edges.
        const coverage = Math.max(0, Math.min(1, 0.5 - distance / unit));
        if (coverage === 0) continue;
        const outAlpha = coverage + alpha * (1 - coverage);
        colour = colour.map((c, i) => (layerColour[i] * coverage + c * alpha * (1 - coverage)) / outAlpha);
        alpha = outAlpha;
      }
      const offset = (py * size + px) * 4;
      rgba[offset] = Math.round(colour[0]);
      rgba[offset + 1] = Math.round(colour[1]);
      rgba[offset + 2] = Math.round(colour[2]);
      rgba[offset + 3] = Math.round(alpha * 255);
    }
  }
  return encodePng(size, rgba);
}

writeFileSync(path.join(here, 'icon.png'), draw(512));
writeFileSync(path.join(here, 'tray-icon.png'), draw(32));
console.log('Wrote build/icon.png and build/tray-icon.png');
