// A view saved as a PNG: its title above its cells, drawn afresh at twice the size, in the page's theme.

import { element, setIfNew } from './dom.js';
import { GAP } from './layout.js';
import { coloursOf, paint } from './paint.js';

export function savePng(view, box, shared, width, height, palette) {
  const scale = 2, titleHeight = shared.font_size + 12;
  const canvas = element('canvas', { width: width * scale, height: (height + titleHeight) * scale });
  const ctx = canvas.getContext('2d');
  ctx.scale(scale, scale);
  ctx.fillStyle = `rgb(${palette.background.slice(0, 3).join(',')})`;
  ctx.fillRect(0, 0, width, height + titleHeight);
  ctx.fillStyle = palette.text;
  ctx.font = `bold ${shared.font_size + 1}px sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.fillText(view.title, GAP, titleHeight / 2);
  ctx.translate(0, titleHeight);
  paint(ctx, view, box, coloursOf(view, shared.colours, palette.background), shared.colours, palette);
  canvas.toBlob((blob) => {
    const link = element('a', { href: URL.createObjectURL(blob), download: `attnviz-${view.name}.png` });
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }, 'image/png');
}

// The PNG button's tooltip (the file's name) and its name (what it saves, with the word it shows).
export function namePng(button, view) {
  setIfNew(button, 'title', `Save as attnviz-${view.name}.png`);
  const named = `Save ${view.title} as PNG`;
  if (button.getAttribute('aria-label') !== named) button.setAttribute('aria-label', named);
}
