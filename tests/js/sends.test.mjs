// The rail's sends (attnviz/component/rail.js: Sends): one change a run, the newest value of a field, every action.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { NO_DRAW_MS, Sends } from '../../attnviz/component/rail.js';

function harness() {
  const sent = [];
  const timers = [];
  const sends = new Sends((field, value) => sent.push([field, value]), { later: (run, ms) => timers.push({ run, ms }) });
  return { sends, sent, timers };
}

test('fifty clicks on a tick box end on the value the clicks imply, whatever the runs draw in between', () => {
  const { sends, sent } = harness();
  let checked = false;
  let python = false; // what Python has drawn
  for (let click = 0; click < 50; click++) {
    checked = !checked;
    sends.submit('causal', checked);
    if (click % 7 === 3) sends.drawn({ causal: python }); // an older run draws mid-burst: nothing is released
    if (click % 5 === 4) {
      python = sent.at(-1)[1]; // the run of the change sent last draws it
      sends.drawn({ causal: python });
    }
    assert.equal(sends.holds('causal'), true); // the box keeps the student's choice under the pointer
  }
  python = sent.at(-1)[1];
  sends.drawn({ causal: python });
  python = sent.at(-1)[1];
  sends.drawn({ causal: python });
  assert.equal(python, false); // 50 clicks: back where it started
  assert.equal(sends.holds('causal'), false);
  assert.ok(sent.length <= 12); // one send a draw, not one a click
});

test('each action is sent after the draw before it; values of a field merge', () => {
  const { sends, sent } = harness();
  sends.submit('undo', true, { action: true });
  sends.submit('undo', true, { action: true });
  sends.submit('temperature', 1.2);
  sends.submit('temperature', 1.4);
  assert.deepEqual(sent, [['undo', true]]);
  sends.drawn({ temperature: 1 });
  sends.drawn({ temperature: 1 });
  assert.deepEqual(sent, [['undo', true], ['undo', true], ['temperature', 1.4]]);
  assert.equal(sends.holds('temperature'), true);
  sends.drawn({ temperature: 1.4 });
  assert.equal(sends.holds('temperature'), false);
});

test('a change Python never draws lets the next one go after a while, and only its own timer does', () => {
  const { sends, sent, timers } = harness();
  sends.submit('causal', true);
  sends.submit('scale', false);
  assert.equal(timers[0].ms, NO_DRAW_MS);
  sends.drawn({ causal: true, scale: true }); // the first change is drawn: the second is sent, with its own timer
  timers[0].run(); // the first change's timer, late: it must not let a third change past the second's draw
  sends.submit('focus', 3);
  assert.deepEqual(sent, [['causal', true], ['scale', false]]);
  timers[1].run(); // Python refused the second change: it is never drawn
  assert.deepEqual(sent.at(-1), ['focus', 3]);
});
