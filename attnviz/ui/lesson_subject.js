// A lesson step's arrival: the page scrolls to what the step's note talks about (attnviz/ui/lesson_screen.py names it
// by CSS selectors, the first found wins; a selector's every match counts), below the lesson's bar, and keeps it there while the page settles (charts draw, fonts load), until
// the reader scrolls. A presenter's clicker sends Page Down to the lesson, so the page itself cannot be scrolled there.

const MARGIN = 8; // px between the subject and the bar above it, or the screen's bottom edge

// How far to scroll (px, down positive) so the box {top, bottom} shows between ``above`` and ``below``: the least
// move that shows it whole, or its top under ``above`` when it is taller than the room.
export function scrollNeeded({ top, bottom }, above, below) {
  if (top < above + MARGIN) return top - above - MARGIN;
  if (bottom > below - MARGIN) return Math.min(bottom - below + MARGIN, top - above - MARGIN);
  return 0;
}

// What scrolls the page: Streamlit's main section (or the document, in another host).
function scroller() {
  return document.querySelector('[data-testid="stMain"]') || document.scrollingElement;
}

// The box around every drawn element ``selector`` finds ("the views, the lens": both), or null.
function boxOf(selector) {
  const boxes = [...document.querySelectorAll(selector)].map((found) => found.getBoundingClientRect()).filter((box) => box.height);
  if (!boxes.length) return null;
  return { top: Math.min(...boxes.map((box) => box.top)), bottom: Math.max(...boxes.map((box) => box.bottom)) };
}

// The first of ``selectors`` on the page and drawn.
function bringIntoView(selectors) {
  const subject = selectors.map(boxOf).find(Boolean);
  if (!subject) return false;
  const bar = document.querySelector('.st-key-lesson_bar');
  const above = bar ? bar.getBoundingClientRect().bottom : 0;
  const by = scrollNeeded(subject, above, window.innerHeight);
  if (Math.abs(by) >= 1) scroller().scrollBy({ top: by, behavior: 'instant' });
  return true;
}

const held = { arrival: null, watch: null, stop: null };

function release() {
  held.watch?.disconnect();
  held.stop?.();
  held.watch = null;
  held.stop = null;
}

export default function ({ data }) {
  const { selectors, arrival } = data;
  if (!selectors.length || held.arrival === arrival) return;
  held.arrival = arrival;
  release();
  bringIntoView(selectors);
  // The page grows as its parts draw: each change of its size brings the subject back, until the reader scrolls.
  const main = scroller();
  held.watch = new ResizeObserver(() => bringIntoView(selectors));
  for (const block of main.querySelectorAll('[data-testid="stMainBlockContainer"]')) held.watch.observe(block);
  const byReader = () => release();
  const events = ['wheel', 'touchmove', 'mousedown'];
  for (const name of events) main.addEventListener(name, byReader, { passive: true, once: true });
  held.stop = () => { for (const name of events) main.removeEventListener(name, byReader); };
}
