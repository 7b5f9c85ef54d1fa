// The keyboard's helpers on every page (attnviz/ui/text.py draws them once a run; they install themselves once a tab).
//
// 1. A key pressed while a rerun is in flight waits for it to end, then presses the live button. Sent at once, it
//    would reach the server with the values the browser showed before that run (Step by step's stage, say), and the
//    server would apply it to those: Next pressed twice would move one stage. Queued, each press moves once.
// 2. A key pressed on a button starts a rerun that may disable or redraw that button (Step by step's Next at the last
//    stage; the Playground's Undo, whose run draws its views anew): the focus would fall to the page's body or its
//    skip link, sending the keyboard user back to the top. Until their next key or click, a lost focus goes back to
//    the live button they pressed, or, if that is disabled, the nearest enabled control beside it (Back). Chromium
//    moves the focus off a disabled button a frame after the change, so each frame is checked too.
// 3. The number tables are matrices: their header row's menu would sort one table's rows while the others keep token
//    order, or hide a column. Streamlit has no switch for it (streamlit/streamlit#10015), so a press on a table's
//    header row is dropped before the grid sees it; its cells are typed into as before.
// 4. "Skip to the views" (attnviz/ui/text.py) moves the focus to the first view, a Tab stop that says its cells (on a
//    page without views, to its content).
// 5. Streamlit's slider names its thumb twice (its aria-labelledby lists the thumb's own label and the group's, which
//    is the same words: "d_k d_k"); without that list the thumb's name is its label, once.
// 6. The page's background as a CSS variable (--attnviz-page-bg), for the bars that stay at the top while the page
//    scrolls under them: Streamlit's theme sets no variable of its own, and Canvas is white under its dark theme.
// 7. Two Tab stops that lead nowhere leave the Tab order: Streamlit's <main> (tabindex 0, no visible focus) and each
//    heading's "Link to heading" anchor (a hover helper). "Skip to the views" still focuses <main> from script.

const AROUND = '[data-testid="stHorizontalBlock"], [data-field]';
const ENABLED = 'input:not(:disabled), select:not(:disabled), button:not(:disabled)';
// Buttons whose press reruns the script: Streamlit's st.button, and the matrix component's (not its help buttons).
const RERUNS = '[data-testid="stButton"] button, button[data-field], [data-field] button:not(.attnviz-about)';
const TABLE = '[data-testid="stDataFrame"]';
const GRID = `${TABLE} canvas[data-testid="data-grid-canvas"]`;
const TABLE_HEADER_PX = 35; // a data grid's header row (st.dataframe)
const STARTS_WITHIN_MS = 2000; // a press's run has begun by then, or it started none
const KEEPS_FOCUS_MS = 30000;

const keyOf = (element) => [...(element.closest('[class*="st-key-"]')?.classList ?? [])]
  .find((name) => name.startsWith('st-key-'));

function buttons(key, field) {
  const container = key ? document.querySelector(`.${CSS.escape(key)}`) : null;
  const inField = field ? `button[data-field="${CSS.escape(field)}"], [data-field="${CSS.escape(field)}"] button` : 'button';
  return [...(container?.querySelectorAll(inField) ?? [])];
}

// Where a button lives, so that the same button is found after a rerun has drawn it anew.
function placeOf(button) {
  const key = keyOf(button);
  const field = button.closest('[data-field]')?.dataset.field;
  return { key, field, index: buttons(key, field).indexOf(button), around: button.closest(AROUND) };
}

// The same button drawn anew, or what surrounds it: its row of buttons, the component's controls, its widget.
function surroundings(place, same) {
  const container = place.key ? document.querySelector(`.${CSS.escape(place.key)}`) : null;
  const around = (place.field ? same?.closest('.attnviz-rail') : same?.closest(AROUND)) ?? container;
  return around ?? (place.around?.isConnected ? place.around : null);
}

function liveButton(place) {
  const same = buttons(place.key, place.field)[place.index];
  return same && !same.disabled ? same : surroundings(place, same)?.querySelector(ENABLED);
}

function nameSlidersOnce() {
  for (const thumb of document.querySelectorAll('[data-testid="stSlider"] input[aria-labelledby][aria-label]')) {
    thumb.removeAttribute('aria-labelledby');
  }
}

// Streamlit's data grid is a canvas (and a grid table inside it) without a name: the name is the hidden line its
// container holds (attnviz.ui.text.named_table).
function nameTables() {
  for (const grid of document.querySelectorAll(GRID)) {
    const name = grid.closest('[class*="st-key-named-table-"]')?.querySelector('.attnviz-table-name')?.textContent;
    for (const named of [grid, grid.querySelector('table[role="grid"]')]) {
      if (name && named && named.getAttribute('aria-label') !== name) named.setAttribute('aria-label', name);
    }
  }
}

function focusLost() {
  const active = document.activeElement;
  return !active || active === document.body || active.disabled || !active.isConnected
    || active.matches('[data-testid="stSkipToContent"]');
}

function onTableHeader(event) {
  const table = event.target.closest?.(TABLE);
  return Boolean(table) && event.clientY - table.getBoundingClientRect().top < TABLE_HEADER_PX;
}

function dropTableHeaderPresses() {
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'contextmenu']) {
    document.addEventListener(type, (event) => {
      if (!onTableHeader(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    }, true);
  }
}

function notePageBackground(app) {
  const background = app ? getComputedStyle(app).backgroundColor : '';
  const root = document.documentElement.style;
  if (background && root.getPropertyValue('--attnviz-page-bg') !== background) root.setProperty('--attnviz-page-bg', background);
}

function untab() {
  const main = document.querySelector('[data-testid="stMain"]');
  if (main && main.tabIndex !== -1) main.tabIndex = -1;
  for (const anchor of document.querySelectorAll('a[aria-label="Link to heading"]:not([tabindex="-1"])')) anchor.tabIndex = -1;
}

export default function () {
  if (window.__attnvizKeyboard) return;
  window.__attnvizKeyboard = true;
  const app = document.querySelector('[data-testid="stApp"]');
  const running = () => app?.getAttribute('data-test-script-state') === 'running';
  let pressed = null; // the place of the button a key last pressed, and when
  let sent = null; // when a press that reruns went to the server, until its run is over
  const queue = []; // places of buttons pressed while a run was in flight
  let held = false; // a queued space bar's key-up is yet to come

  const keepFocus = () => {
    if (pressed && focusLost()) liveButton(pressed)?.focus();
  };
  const watch = () => {
    keepFocus();
    if (pressed && performance.now() - pressed.at < KEEPS_FOCUS_MS) requestAnimationFrame(watch);
  };
  const inFlight = () => running() || (sent !== null && performance.now() - sent < STARTS_WITHIN_MS);
  // Two frames after a run ends, its elements are drawn: the live button is the one the run drew, not the one it
  // replaces (a click on that would go nowhere).
  const replaySoon = () => requestAnimationFrame(() => requestAnimationFrame(replay));
  const replay = () => {
    if (inFlight() || !queue.length) return;
    const place = queue[0];
    const button = buttons(place.key, place.field)[place.index];
    if (!button) { // not drawn yet, or gone with the page: given up after about a second
      if ((place.tries = (place.tries ?? 0) + 1) > 60) queue.shift();
      return replaySoon();
    }
    queue.shift();
    if (button.disabled) return replaySoon(); // as a press on a disabled button does nothing
    pressed = { ...place, at: performance.now() };
    button.focus();
    sent = performance.now();
    button.click();
    requestAnimationFrame(watch);
    setTimeout(replaySoon, STARTS_WITHIN_MS); // a press that started no run lets the next one go all the same
  };

  document.addEventListener('keydown', (event) => {
    const button = ['Enter', ' '].includes(event.key) ? event.target.closest?.('button') : null;
    pressed = button?.closest(AROUND) ? { ...placeOf(button), at: performance.now() } : null;
    if (!button?.matches(RERUNS)) return;
    if (inFlight() || queue.length) {
      event.preventDefault();
      event.stopImmediatePropagation();
      held = event.key === ' '; // a space presses a button as it comes up: that too is held back
      queue.push(placeOf(button));
      setTimeout(replaySoon, STARTS_WITHIN_MS);
      return;
    }
    sent = performance.now();
    if (pressed) requestAnimationFrame(watch);
  }, true);
  document.addEventListener('keyup', (event) => {
    if (!held || event.key !== ' ') return;
    held = false;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
  document.addEventListener('pointerdown', () => { pressed = null; }, true);
  dropTableHeaderPresses();
  document.addEventListener('click', (event) => {
    if (!event.target.closest?.('.attnviz-skip')) return;
    event.preventDefault();
    (document.querySelector('.attnviz-view canvas') ?? document.querySelector('[data-testid="stMain"]'))?.focus();
  });
  nameSlidersOnce();
  nameTables();
  notePageBackground(app);
  untab();
  // The background is read once a frame, not once a mutation: a rerun mutates the page hundreds of times, and each
  // read of a computed style made the browser restyle the page mid-render. Names are given at once, before a reader
  // can land on an unnamed table.
  let noting = false;
  const noteOnce = () => { noting = false; notePageBackground(app); untab(); };
  new MutationObserver(() => {
    keepFocus(); nameSlidersOnce(); nameTables();
    if (!noting) requestAnimationFrame(noteOnce);
    noting = true;
  }).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'],
  });
  if (app) {
    new MutationObserver(() => {
      if (running()) sent = null; // the press's run has begun: it is over when the script is no longer running
      else replaySoon();
    }).observe(app, { attributes: true, attributeFilter: ['data-test-script-state'] });
  }
}
