// Makes the PNG icons of the web app manifest from public/logo.svg (run after changing the logo):
//   node apps/web/scripts/generate-icons.mjs
// The PNGs are committed, so a build needs neither sharp nor this script.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const publicDir = path.resolve(import.meta.dirname, '../public');
const logo = readFileSync(path.join(publicDir, 'logo.svg'), 'utf8');

// The logo's tile colour and its drawing without the rounded tile: a maskable icon and the
// apple-touch icon must fill the whole square (the platform cuts its own shape out of it), and
// the drawing must stay inside the maskable safe zone, a centred circle of 80% of the size.
const TILE = '#1976d2';
const glyph = logo
  .split('\n')
  .filter((line) => line.trim().startsWith('<path'))
  .join('\n');
if (glyph === '') throw new Error('logo.svg: no <path> elements found for the glyph');

function fullBleed(scale) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="${TILE}"/>
  <g transform="translate(32 32) scale(${scale}) translate(-32 -34)">${glyph}</g>
</svg>`;
}

async function render(svg, size, file) {
  await sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(publicDir, file));
  console.log(`${file} ${size}x${size}`);
}

await render(logo, 192, 'icon-192.png');
await render(logo, 512, 'icon-512.png');
await render(fullBleed(0.85), 512, 'icon-maskable-512.png');
await render(fullBleed(0.9), 180, 'apple-touch-icon.png');
