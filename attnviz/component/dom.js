// Small DOM helpers every module of the component shares. Text is always set as text, never as markup.

export function element(tag, props = {}, ...children) {
  const made = Object.assign(document.createElement(tag), props);
  made.append(...children);
  return made;
}

// Writes only what changed: a rerun that sends the same value costs no style recalculation.
export function setIfNew(target, name, value) {
  if (target[name] !== value) target[name] = value;
}

const probe = { context: null, cache: new Map() };

// A CSS colour as [r, g, b, a] (0–255, alpha 0–1), read back from a one-pixel canvas.
export function rgbOf(css) {
  if (!probe.cache.has(css)) {
    probe.context ??= document.createElement('canvas').getContext('2d');
    const ctx = probe.context;
    ctx.fillStyle = '#000';
    ctx.fillStyle = css;
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    probe.cache.set(css, [r, g, b, a / 255]);
  }
  return probe.cache.get(css);
}

// The first opaque background from ``node`` up, crossing a shadow root to its host (a notebook cell may be one).
function backgroundFrom(node) {
  for (let at = node; at; at = at.parentElement || at.getRootNode().host) {
    const background = rgbOf(getComputedStyle(at).backgroundColor || 'transparent');
    if (background[3]) return background;
  }
  return [255, 255, 255, 1];
}

// The host's text colour and opaque background under ``root``: light or dark theme (Streamlit's app, or a notebook's
// cell, whichever holds it).
export function theme(root) {
  const background = backgroundFrom(root.closest('[data-testid="stApp"]') || root);
  return { text: getComputedStyle(root).color || '#31333f', background };
}
