// The Playground's four attention views: one canvas each, kept across reruns, so a toggle repaints the cells in place
// and their colours glide to the new values. Python (attnviz/figures/attention_grid.py) decides every number, text
// and colour position; this file lays the views out, maps positions to colours, and answers hover, click and PNG.

const GLIDE_MS = 160; // a colour change is seen as a change; the new numbers are drawn in its first frame
const GAP = 4; // px between a label and the cells

const rgbOf = (() => {
  const probe = document.createElement('canvas').getContext('2d');
  const cache = new Map();
  return (css) => {
    if (!cache.has(css)) {
      probe.fillStyle = '#000';
      probe.fillStyle = css;
      probe.clearRect(0, 0, 1, 1);
      probe.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
      cache.set(css, [r, g, b, a / 255]);
    }
    return cache.get(css);
  };
})();

// Where a position falls on the palette, linearly between its evenly spaced stops: [r, g, b].
function paletteColour(stops, range, position) {
  const t = Math.min(1, Math.max(0, (position - range[0]) / (range[1] - range[0]))) * (stops.length - 1);
  const k = Math.min(stops.length - 2, Math.floor(t));
  const f = t - k;
  const a = stops[k], b = stops[k + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

// Perceived lightness of a colour, 0–255: what decides dark or light text on a cell, and the page's scheme.
const lightness = (r, g, b) => 0.299 * r + 0.587 * g + 0.114 * b;

const blend = (over, under) => [0, 1, 2].map((c) => over[c] * over[3] + under[c] * (1 - over[3]));

function setIfNew(target, name, value) {
  if (target[name] !== value) target[name] = value;
}

function theme(root) {
  const app = root.closest('[data-testid="stApp"]') || document.body;
  const background = rgbOf(getComputedStyle(app).backgroundColor || '#fff');
  return { text: getComputedStyle(root).color || '#31333f', background: background[3] ? background : [255, 255, 255, 1] };
}

// Every cell's colour as an opaque [r, g, b], masked cells included (grey over the page), so a mask can glide too.
function targetColours(view, colours, background) {
  const stops = view.palette.map((c) => rgbOf(c));
  const masked = blend(rgbOf(colours.masked), background);
  const out = new Float32Array(view.colour.length * 3);
  view.colour.forEach((p, k) => out.set(p === null ? masked : paletteColour(stops, view.range, p), 3 * k));
  return out;
}

// Sizes of everything but the cells, in CSS px, from the view and the canvas's width and height.
function layout(ctx, view, width, height, fontSize) {
  const tick = view.tick_font;
  ctx.font = `bold ${tick}px sans-serif`;
  const left = Math.min(width * 0.3, Math.max(...view.rows.map((r) => ctx.measureText(r).width))) + 2 * GAP;
  ctx.font = `${tick - 1}px sans-serif`;
  const widest = Math.max(...view.ticks.map((t) => ctx.measureText(t).width));
  const rotated = view.ticks.length > 4;
  const bottom = Math.min(height * 0.22, (rotated ? widest * Math.sin(Math.PI / 3) + tick * 0.6 : tick) + 2 * GAP);
  const cellW = (width - left - GAP) / view.ticks.length;
  const cellH = (height - bottom - GAP) / view.rows.length;
  const box = { left, top: GAP, bottom, cellW, cellH, tick, rotated, width, height };
  return { ...box, cellFont: cellFont(ctx, view, box, fontSize) };
}

// The largest cell-text size (≤ fontSize − 1) at which the widest text fits its cell; 0 when under 7 px.
function cellFont(ctx, view, box, fontSize) {
  if (!view.text.length) return 0;
  ctx.font = `10px sans-serif`;
  const widest = Math.max(...view.text.map((t) => ctx.measureText(t).width)) / 10;
  const size = Math.floor(Math.min(fontSize - 1, box.cellH * 0.6, (box.cellW - 2) / Math.max(widest, 0.1)));
  return size >= 7 ? size : 0;
}

// ``label`` cut with "…" to fit ``space`` px (hover gives it whole).
function fitted(ctx, label, space) {
  if (ctx.measureText(label).width <= space) return label;
  let cut = label;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > space) cut = cut.slice(0, -1);
  return `${cut}…`;
}

function everyNth(size, space) {
  return Math.max(1, Math.ceil((size * 1.15) / Math.max(space, 0.1)));
}

// Draws one view on ``ctx`` (CSS px units), with each cell's colour taken from ``rgb``.
function paint(ctx, view, box, rgb, colours, palette) {
  const { left, top, cellW, cellH, tick } = box;
  const rows = view.rows.length, cols = view.ticks.length;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const k = 3 * (i * cols + j);
      ctx.fillStyle = `rgb(${rgb[k] | 0},${rgb[k + 1] | 0},${rgb[k + 2] | 0})`;
      // Overlap by a fraction of a pixel so no seam shows between cells.
      ctx.fillRect(left + j * cellW, top + i * cellH, cellW + 0.5, cellH + 0.5);
    }
  }
  const size = box.cellFont;
  if (size) {
    ctx.font = `${size}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    view.text.forEach((text, k) => {
      const x = left + (k % cols + 0.5) * cellW, y = top + (Math.floor(k / cols) + 0.5) * cellH;
      // Dark text on light cells, white on dark ones (perceived lightness of the colour drawn under it).
      ctx.fillStyle = lightness(rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]) > 140 ? '#111' : '#fff';
      ctx.fillText(text, x, y);
    });
  }
  if (view.changed.length) {
    ctx.strokeStyle = colours.changed;
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    for (const k of view.changed) ctx.strokeRect(left + (k % cols) * cellW + 1, top + Math.floor(k / cols) * cellH + 1, cellW - 2, cellH - 2);
    ctx.setLineDash([]);
  }
  if (view.focus !== null) { // black with a white core: seen on light and dark themes alike
    const y = top + view.focus * cellH;
    ctx.lineWidth = 3;
    ctx.strokeStyle = colours.focus;
    ctx.strokeRect(left + 1.5, y + 1.5, cols * cellW - 3, cellH - 3);
    ctx.lineWidth = 1;
    ctx.strokeStyle = '#fff';
    ctx.strokeRect(left + 1.5, y + 1.5, cols * cellW - 3, cellH - 3);
  }
  // Row labels right-aligned left of the cells; column ticks under them, slanted when there are many.
  ctx.fillStyle = palette.text;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const rowStep = everyNth(tick, cellH);
  view.rows.forEach((label, i) => {
    const nearFocus = view.focus !== null && i !== view.focus && Math.abs(i - view.focus) < rowStep;
    if (i !== view.focus && (i % rowStep || nearFocus)) return; // the focus row's label always, and room around it
    ctx.font = `${i === view.focus ? 'bold ' : ''}${tick}px sans-serif`;
    ctx.fillText(label, left - GAP, top + (i + 0.5) * cellH, left - GAP);
  });
  ctx.font = `${tick - 1}px sans-serif`;
  const colStep = everyNth(box.rotated ? tick * 0.8 : tick * 2.5, cellW);
  const y = top + rows * cellH + GAP;
  view.ticks.forEach((label, j) => {
    if (j % colStep) return;
    const x = left + (j + 0.5) * cellW;
    ctx.save();
    ctx.translate(x, y);
    if (box.rotated) {
      ctx.rotate(-Math.PI / 3);
      ctx.textAlign = 'right';
      ctx.fillText(fitted(ctx, label, (box.bottom - GAP) / Math.sin(Math.PI / 3)), 0, 0);
    } else {
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      ctx.fillText(label, 0, 0);
    }
    ctx.restore();
  });
}

// What a hover says about cell k.
function sentence(view, k) {
  const cols = view.ticks.length;
  const where = `${view.rows[Math.floor(k / cols)]} → ${view.cols[k % cols]}`;
  return view.colour[k] === null ? `${where}: masked, score −∞, weight 0` : `${where}: ${view.value_name} ${view.numbers[k]}`;
}

// A table for screen readers (and the browser tests), hidden from sight: every cell's text under its row and column.
function updateTable(table, view) {
  const cols = view.ticks.length;
  const shape = `${view.rows.join('\u0000')}|${view.cols.join('\u0000')}`;
  if (table.dataset.shape !== shape) {
    table.dataset.shape = shape;
    table.replaceChildren();
    const caption = table.createCaption();
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement('td'));
    for (const label of view.cols) head.appendChild(Object.assign(document.createElement('th'), { textContent: label, scope: 'col' }));
    const body = table.createTBody();
    view.rows.forEach((label) => {
      const row = body.insertRow();
      row.appendChild(Object.assign(document.createElement('th'), { textContent: label, scope: 'row' }));
      for (let j = 0; j < cols; j++) row.insertCell();
    });
  }
  setIfNew(table.caption, 'textContent', view.title);
  const cells = table.tBodies[0].rows;
  view.text.forEach((text, k) => {
    const cell = cells[Math.floor(k / cols)].cells[1 + (k % cols)];
    const masked = view.colour[k] === null ? 'true' : 'false';
    if (cell.textContent !== text) cell.textContent = text;
    if (cell.dataset.masked !== masked) cell.dataset.masked = masked;
  });
}

class View {
  constructor(root, index) {
    this.figure = document.createElement('figure');
    this.figure.className = 'attnviz-view';
    const caption = document.createElement('figcaption');
    this.title = Object.assign(document.createElement('span'), { className: 'attnviz-view-title' });
    this.png = Object.assign(document.createElement('button'), { className: 'attnviz-png', type: 'button', textContent: 'PNG' });
    caption.append(this.title, this.png);
    this.canvas = document.createElement('canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.view = this;
    this.table = Object.assign(document.createElement('table'), { className: 'attnviz-sr' });
    this.tip = Object.assign(document.createElement('div'), { className: 'attnviz-tip', role: 'tooltip', hidden: true });
    this.figure.append(caption, this.canvas, this.table, this.tip);
    root.insertBefore(this.figure, root.children[index] || null);
    this.drawn = null; // the colours on screen now (they move during a glide)
    this.revision = 0;
    this.canvas.addEventListener('mousemove', (event) => this.hover(event));
    this.canvas.addEventListener('mouseleave', () => { this.tip.hidden = true; });
    this.canvas.addEventListener('click', (event) => this.click(event));
    this.png.addEventListener('click', () => this.savePng());
  }

  // DOM writes only (no reads, so four views cost one layout, not four): labels, the reader's table, new colours.
  update(view, shared, palette) {
    const reshaped = !this.view || this.view.rows.length !== view.rows.length || this.view.ticks.length !== view.ticks.length;
    this.view = view;
    this.shared = shared;
    this.palette = palette;
    this.box = null; // laid out again at the next paint
    setIfNew(this.figure.dataset, 'view', view.name);
    setIfNew(this.title, 'textContent', view.title);
    setIfNew(this.title.style, 'fontSize', `${shared.font_size + 1}px`);
    setIfNew(this.png, 'title', `Save as attnviz-${view.name}.png`);
    setIfNew(this.canvas.style, 'height', `${shared.height}px`);
    const label = `${view.title}: ${view.rows.length} rows, ${view.ticks.length} columns. `
      + (view.text.length ? 'The table below reads every cell.' : 'Hover a cell to read it.');
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
    // The reader's table is rewritten just after the frame that first paints the new data: its hundreds of cells are
    // the larger part of the layout that frame would otherwise wait for, and the eye comes first.
    cancelAnimationFrame(this.tableFrame);
    clearTimeout(this.tableTimer);
    this.tableFrame = requestAnimationFrame(() => {
      this.tableTimer = setTimeout(() => (view.text.length ? updateTable(this.table, view) : this.table.replaceChildren()));
    });
    const target = targetColours(view, shared.colours, palette.background);
    // Cells too small for numbers change at once: a glide there shows nothing the numbers would, and costs more.
    const still = reshaped || !view.text.length || matchMedia('(prefers-reduced-motion: reduce)').matches;
    this.from = still ? target : this.drawn;
    this.to = target;
  }

  // The new numbers at once, the colours gliding from the old ones to the new over GLIDE_MS.
  glide() {
    cancelAnimationFrame(this.frame);
    this.revision += 1;
    const { from, to } = this;
    // A head start of a third of the glide: the first paint already shows the colours most of the way there (ease-out),
    // and the rest of the move is what the eye follows.
    const started = performance.now() - GLIDE_MS / 3;
    const step = (now) => {
      const t = Math.min(1, (now - started) / GLIDE_MS);
      const ease = 1 - (1 - t) ** 3;
      this.drawn = t >= 1 ? to : from.map((a, k) => a + (to[k] - a) * ease);
      this.draw();
      if (t < 1) this.frame = requestAnimationFrame(step);
    };
    step(started);
  }

  draw() {
    const { canvas, view, shared, width } = this;
    const ratio = window.devicePixelRatio || 1, height = shared.height;
    if (!width || !this.drawn) return;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (!this.box) this.box = layout(ctx, view, width, height, shared.font_size);
    paint(ctx, view, this.box, this.drawn, shared.colours, this.palette);
    canvas.dataset.revision = this.revision; // which data the last paint drew (the benchmark's "shown")
  }

  resized(width, palette) {
    if (width === this.width && palette.text === this.palette.text && this.box) return;
    this.width = width;
    this.palette = palette;
    this.box = null;
    this.draw();
  }

  cellAt(event) {
    const { left, top, cellW, cellH } = this.box || {};
    const i = Math.floor((event.offsetY - top) / cellH);
    const j = Math.floor((event.offsetX - left) / cellW);
    const rows = this.view.rows.length, cols = this.view.ticks.length;
    if (i < 0 || i >= rows) return null;
    return { i, j: j >= 0 && j < cols ? j : null };
  }

  hover(event) {
    const at = this.box && this.cellAt(event);
    this.canvas.style.cursor = at ? 'pointer' : 'default';
    if (!at || at.j === null) { this.tip.hidden = true; return; }
    this.tip.textContent = sentence(this.view, at.i * this.view.ticks.length + at.j);
    this.tip.hidden = false;
    const x = this.canvas.offsetLeft + event.offsetX, y = this.canvas.offsetTop + event.offsetY;
    const flip = x > this.figure.clientWidth / 2;
    this.tip.style.left = flip ? '' : `${x + 12}px`;
    this.tip.style.right = flip ? `${this.figure.clientWidth - x + 12}px` : '';
    this.tip.style.top = `${y + 14}px`;
  }

  click(event) {
    const at = this.box && this.cellAt(event);
    if (at) this.shared.choose(at.i); // a cell or a row label: its row becomes the focus token
  }

  savePng() {
    const scale = 2, titleHeight = this.shared.font_size + 12;
    const width = this.canvas.clientWidth, height = this.shared.height;
    const canvas = document.createElement('canvas');
    canvas.width = width * scale;
    canvas.height = (height + titleHeight) * scale;
    const ctx = canvas.getContext('2d');
    const palette = theme(this.figure);
    ctx.scale(scale, scale);
    ctx.fillStyle = `rgb(${palette.background.slice(0, 3).join(',')})`;
    ctx.fillRect(0, 0, width, height + titleHeight);
    ctx.fillStyle = palette.text;
    ctx.font = `bold ${this.shared.font_size + 1}px sans-serif`;
    ctx.textBaseline = 'middle';
    ctx.fillText(this.view.title, GAP, titleHeight / 2);
    ctx.translate(0, titleHeight);
    paint(ctx, this.view, this.box, targetColours(this.view, this.shared.colours, palette.background),
      this.shared.colours, palette);
    canvas.toBlob((blob) => {
      const link = Object.assign(document.createElement('a'), {
        href: URL.createObjectURL(blob), download: `attnviz-${this.view.name}.png`,
      });
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    }, 'image/png');
  }
}

// Draws ``data.views`` into ``root`` (a .attnviz-views grid), keeping one View a view across calls; ``choose(row)`` is
// called when a cell or row label is clicked.
function drawViews(root, data, choose) {
  if (!root.views) {
    root.views = [];
    // Widths come from here, measured by the browser's own layout: reading them in the update would force a layout.
    // A new width (window, sidebar, presenter mode) or theme redraws every view as it is, without a glide.
    root.resizes = new ResizeObserver((entries) => {
      const palette = theme(root);
      for (const entry of entries) entry.target.view.resized(entry.contentRect.width, palette);
    });
  }
  const palette = theme(root); // read before any write below
  const shared = { ...data, choose };
  data.views.forEach((view, index) => {
    if (!root.views[index]) {
      root.views[index] = new View(root, index);
      root.resizes.observe(root.views[index].canvas);
    }
    const shown = root.views[index], sent = `${data.height} ${data.font_size} ${JSON.stringify(view)}`;
    shown.shared = shared; // the newest callback to Python
    if (sent === shown.sent && palette.text === shown.palette.text) return; // unchanged (raw scores, on a toggle)
    shown.sent = sent;
    shown.update(view, shared, palette);
    shown.glide();
  });
  for (const extra of root.views.splice(data.views.length)) extra.figure.remove();
}
