// Colours of cells: where a position falls on a palette, and the text drawn on a cell; and a large view's colours and
// hover numbers unpacked. Pure functions (tested with node --test in tests/js); the palette stops arrive as [r, g, b]
// from the caller.

// Where a position falls on the palette, linearly between its evenly spaced stops: [r, g, b].
export function paletteColour(stops, range, position) {
  const t = Math.min(1, Math.max(0, (position - range[0]) / (range[1] - range[0]))) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(t));
  const f = t - k;
  const a = stops[k], b = stops[k + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

// Perceived lightness of a colour, 0–255: what decides the page's colour scheme.
export const lightness = (r, g, b) => 0.299 * r + 0.587 * g + 0.114 * b;

// ``over`` ([r, g, b, alpha]) painted on the opaque ``under``: an opaque [r, g, b].
export const blend = (over, under) => [0, 1, 2].map((c) => over[c] * over[3] + under[c] * (1 - over[3]));

// WCAG 2.1's relative luminance of an sRGB colour (0–255 channels) and the contrast ratio of two colours.
export function luminance([r, g, b]) {
  const linear = (c) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrast(one, other) {
  const [a, b] = [luminance(one), luminance(other)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

const BLACK = [0, 0, 0], WHITE = [255, 255, 255];

// The text colour with the higher contrast ratio on ``cell``, chosen by ratio, never by a guess at lightness. Black
// and white are the pair whose better one is at least √21 ≈ 4.58 : 1 on any colour, so every number meets WCAG AA.
export function textOn(cell) {
  return contrast(BLACK, cell) >= contrast(WHITE, cell) ? '#000' : '#fff';
}

// Every cell's colour as an opaque [r, g, b] in one flat array, masked cells (position null) in ``masked``.
export function targetColours(positions, stops, range, masked) {
  const out = new Float32Array(positions.length * 3);
  positions.forEach((p, k) => out.set(p === null ? masked : paletteColour(stops, range, p), 3 * k));
  return out;
}

// Base64 of little-endian 16-bit codes, as numbers.
function codesOf(base64) {
  const bytes = atob(base64), codes = new Uint16Array(bytes.length / 2);
  for (let k = 0; k < codes.length; k++) codes[k] = bytes.charCodeAt(2 * k) | (bytes.charCodeAt(2 * k + 1) << 8);
  return codes;
}

// A view's colour positions as sent: a list (null where masked), or above the text limit one base64 string of
// little-endian 16-bit codes, 0 for masked, else 1 + the place on the view's range in 65,534 steps
// (attnviz/figures/matrix_view.py, packed_positions).
export function positionsOf(colour, [lo, hi]) {
  if (typeof colour !== 'string') return colour;
  return Array.from(codesOf(colour), (code) => (code === 0 ? null : lo + ((code - 1) / 65534) * (hi - lo)));
}

// A view's hover numbers as sent: a list, or above the text limit its distinct texts ("words") and a base64 string of
// little-endian 16-bit indexes into them, one a cell (attnviz/figures/matrix_view.py, packed_numbers).
export function numbersOf(numbers) {
  if (Array.isArray(numbers)) return numbers;
  return Array.from(codesOf(numbers.codes), (code) => numbers.words[code]);
}

// A view as sent, with its colour positions and hover numbers as lists.
export function unpacked(view) {
  return { ...view, colour: positionsOf(view.colour, view.range), numbers: numbersOf(view.numbers) };
}
