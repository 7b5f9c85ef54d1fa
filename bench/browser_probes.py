"""The JavaScript bench.browser puts in the page to time a click: a WebSocket log, a paint log, the click's arming
and collection, and the checks for an idle script and for every chart drawn. Every time is ``performance.now()`` in
the page, so Playwright's round trips are not counted (bench.browser says what each measure means)."""

from __future__ import annotations

from bench.harness.chromium import CHARTS_DRAWN_JS

# Runs before any page script: stamps every WebSocket message (Streamlit's one socket carries every rerun).
WS_LOG_INIT = """
(() => {
  const log = (window.__wsLog = []);
  const Original = window.WebSocket;
  const size = d => (d && (d.byteLength ?? d.size ?? d.length)) || 0;
  class Logged extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', ev => log.push({t: performance.now(), dir: 'in', bytes: size(ev.data)}));
    }
    send(data) {
      log.push({t: performance.now(), dir: 'out', bytes: size(data)});
      return super.send(data);
    }
  }
  window.WebSocket = Logged;
})();
"""

# Every canvas draw call stamps its canvas (cheap: a counter and a time), so the measurement reads a view's pixels only
# in a frame in which it painted, instead of reading every canvas every frame, which slowed the page it timed.
PAINT_LOG_INIT = """
(() => {
  const proto = CanvasRenderingContext2D.prototype;
  for (const name of ['fillRect', 'fill', 'stroke', 'strokeRect', 'fillText', 'strokeText', 'drawImage', 'clearRect']) {
    const original = proto[name];
    proto[name] = function (...args) {
      const canvas = this.canvas;
      canvas.__paints = (canvas.__paints || 0) + 1;
      canvas.__paintedAt = performance.now();
      return original.apply(this, args);
    };
  }
})();
"""

# After arming, every animation frame: for each view that painted since the last frame, a signature of its pixels
# stamped with the time of its paint (and the revision of the data it drew, for the Playground's views); and the
# page's text (the floor app's line). After the click:
# - "started": the first moment by which every view the click changed had painted something new,
# - "shown": the moment by which every changed view showed its new data (see the module's docstring),
# - "settled": the last paint that changed any view.
# (Streamlit marks stale elements at once, so the first DOM mutation says nothing about when new numbers are shown.)
ARM_JS = """
() => {
  const views = () => [...document.querySelectorAll('[data-testid="stEChartsChart"], .attnviz-view')];
  const canvases = chart => [...chart.querySelectorAll('canvas')].filter(c => c.width && c.height);
  const pixels = chart => {
    let signature = 0;
    for (const canvas of canvases(chart)) {
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < data.length; i += 4 * 5) signature = (signature * 31 + data[i] + 7 * data[i + 1] + 13 * data[i + 2]) >>> 0;
    }
    return signature;
  };
  const paints = chart => canvases(chart).reduce((sum, c) => sum + (c.__paints || 0), 0);
  const paintedAt = chart => Math.max(0, ...canvases(chart).map(c => c.__paintedAt || 0));
  // The Playground's views stamp each paint with the data it draws (view.js); ECharts views have no such stamp.
  const revision = chart => canvases(chart).map(c => c.dataset.revision || '').join();
  const text = () => [...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
    .map(e => e.textContent).join('|');
  if (window.__bench) window.__bench.stop = true;
  const charts = views();
  const rec = {
    click: null, stop: false, wsFrom: window.__wsLog.length,
    before: [...charts.map(pixels), text()], counts: charts.map(paints),
    events: [...charts.map(() => []), []],  // per view, then the text: [{t, s}]
  };
  window.__bench = rec;
  window.addEventListener('pointerdown', () => { if (rec.click === null) rec.click = performance.now(); },
                          {capture: true, once: true});
  const tick = () => {
    if (rec.stop) return;
    if (rec.click !== null) {
      views().forEach((chart, i) => {
        const count = paints(chart);
        if (count !== rec.counts[i]) {
          rec.counts[i] = count;
          rec.events[i].push({t: paintedAt(chart), s: pixels(chart), r: revision(chart)});
        }
      });
      const now = text(), texts = rec.events[rec.events.length - 1];
      const last = texts.length ? texts[texts.length - 1].s : rec.before[rec.before.length - 1];
      if (now !== last) texts.push({t: performance.now(), s: now});
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
"""

# The armed measurement, once the page has been quiet for a while: times relative to the click, in ms.
COLLECT_JS = """
() => {
  const rec = window.__bench;
  rec.stop = true;
  const final = rec.events.map((ev, i) => (ev.length ? ev[ev.length - 1].s : rec.before[i]));
  const changed = final.map((s, i) => s !== rec.before[i]);
  const firstNew = rec.events.map((ev, i) => { const e = ev.find(e => e.s !== rec.before[i]); return e ? e.t : null; });
  // A view's new data is shown by the first paint of its last revision (its numbers are drawn then, while its
  // colours glide for a few frames more), or, for a view without revisions, by the first paint of its final pixels.
  const finalAt = rec.events.map((ev, i) => {
    const last = ev.length ? ev[ev.length - 1] : null;
    const e = last && last.r ? ev.find(e => e.r === last.r) : ev.find(e => e.s === final[i]);
    return e ? e.t : null;
  });
  const lastChange = rec.events.map((ev, i) => {
    let t = null, previous = rec.before[i];
    for (const e of ev) { if (e.s !== previous) t = e.t; previous = e.s; }
    return t;
  });
  const latest = values => values.reduce((m, v) => (v === null ? m : Math.max(m ?? v, v)), null);
  const rel = t => (t === null || t === undefined ? null : t - rec.click);
  const ws = window.__wsLog.slice(rec.wsFrom).filter(m => m.t >= rec.click);
  const incoming = ws.filter(m => m.dir === 'in');
  const sent = ws.find(m => m.dir === 'out');
  return {
    started: rel(latest(firstNew.filter((_, i) => changed[i]))),
    shown: rel(latest(finalAt.filter((_, i) => changed[i]))),
    settled: rel(latest(lastChange)),
    changedViews: changed.slice(0, -1).filter(Boolean).length,
    sent: rel(sent && sent.t), firstIn: rel(incoming.length ? incoming[0].t : null),
    lastIn: rel(incoming.length ? incoming[incoming.length - 1].t : null),
    messages: incoming.length, bytesIn: incoming.reduce((s, m) => s + m.bytes, 0),
  };
}
"""

SCRIPT_IDLE_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && app.getAttribute('data-test-connection-state') === 'CONNECTED';
}
"""

# True once every chart on the page has drawn and there are ``expected`` of them; stamps that moment in the page.
ALL_DRAWN_JS = f"""
(expected) => {{
  const s = ({CHARTS_DRAWN_JS})();
  if (s.count >= expected && s.drawn === s.count) {{
    if (window.__allDrawn === undefined) window.__allDrawn = performance.now();
    return true;
  }}
  return false;
}}
"""

TOKENS_SHOWN_JS = "() => document.querySelectorAll('.attnviz-chip').length"

# Runs before any page script (bench.browser_moves): the main thread's long tasks, and the moment of the last click.
LONG_TASKS_INIT = """
(() => {
  window.__longTasks = [];
  window.__clickAt = null;
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) window.__longTasks.push({start: task.startTime, end: task.startTime + task.duration});
  }).observe({type: 'longtask', buffered: true});
  window.addEventListener('pointerdown', () => { window.__clickAt = performance.now(); }, {capture: true});
})();
"""

# A move is over when no long task has run for 1.5 s after the click (the caller also waits for an idle script).
MOVE_QUIET_JS = """
() => {
  const tasks = window.__longTasks, last = tasks.length ? tasks[tasks.length - 1].end : 0;
  return performance.now() - Math.max(last, window.__clickAt ?? 0) > 1500;
}
"""

# The move's times after the click (ms): the last message received, the end of the last long task, both ("finished"),
# the long tasks' total and the longest, and the bytes received.
MOVE_DONE_JS = """
() => {
  const click = window.__clickAt;
  const tasks = window.__longTasks.filter((task) => task.end >= click);
  const incoming = window.__wsLog.filter((m) => m.t >= click && m.dir === 'in');
  const lastIn = incoming.length ? incoming[incoming.length - 1].t - click : 0;
  const lastTask = Math.max(0, ...tasks.map((task) => task.end - click));
  return {
    finished: Math.max(lastIn, lastTask), lastIn, lastTask,
    long: tasks.reduce((sum, task) => sum + task.end - Math.max(task.start, click), 0),
    longest: Math.max(0, ...tasks.map((task) => task.end - task.start)),
    bytesIn: incoming.reduce((sum, m) => sum + m.bytes, 0),
  };
}
"""
