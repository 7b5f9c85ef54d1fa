// The edits' queue and its pure helpers (attnviz/component/edits.js): one edit in flight, the rest in order, released
// by its echo only, sent again (the same id) until echoed; a pasted block; the pending texts over a view's cells.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Edits, isBlock, nextCell, opensWith, overlaid, pastedBlock, rectangular } from '../../attnviz/component/edits.js';
import { NO_DRAW_MS } from '../../attnviz/component/rail.js';

function harness() {
  const sent = [], timers = [], refused = [];
  let changes = 0;
  const edits = new Edits((event) => sent.push(event), {
    later: (run, ms) => timers.push({ run, ms }), changed: () => { changes += 1; }, refused: (words) => refused.push(words), prefix: 'p',
  });
  return { edits, sent, timers, refused, changes: () => changes };
}

const typed = (row, col, text, view = 'Q') => ({ view, row, col, cells: [[text]] });

test('edits go one at a time, in the order typed, each released only by the data that echoes its id', () => {
  const { edits, sent } = harness();
  assert.equal(edits.submit(typed('0: a', 'q1', '1')), 'p-1');
  edits.submit(typed('1: b', 'q2', '2'));
  edits.submit(typed('2: c', 'q1', '3'));
  assert.deepEqual(sent, [{ edit: { view: 'Q', row: '0: a', col: 'q1', cells: [['1']], id: 'p-1' } }]);
  edits.echoed(''); // a rerun from before the edit (a tally update): nothing released
  edits.echoed('p-2'); // not the one in flight
  edits.echoed('other-1'); // another page load's
  assert.equal(sent.length, 1);
  assert.equal(edits.pending().length, 3);
  edits.echoed('p-1');
  assert.deepEqual(sent.map((event) => event.edit.id), ['p-1', 'p-2']);
  assert.deepEqual(sent[1].edit.cells, [['2']]);
  edits.echoed('p-1'); // the same data again (a fragment run): the next is not released by it
  assert.equal(sent.length, 2);
  edits.echoed('p-2');
  edits.echoed('p-3');
  assert.deepEqual(sent.map((event) => event.edit.id), ['p-1', 'p-2', 'p-3']);
  assert.deepEqual(edits.pending(), []);
});

test('an edit never echoed is sent again, the same id, every NO_DRAW_MS, and its timer stops at the echo', () => {
  const { edits, sent, timers } = harness();
  edits.submit(typed('0: a', 'q1', '7'));
  edits.submit(typed('0: a', 'q2', '8'));
  assert.equal(timers.length, 1);
  assert.equal(timers[0].ms, NO_DRAW_MS);
  timers[0].run(); // no echo within the time: the same event again
  timers[1].run();
  assert.deepEqual(sent.map((event) => [event.edit.id, event.edit.col]), [['p-1', 'q1'], ['p-1', 'q1'], ['p-1', 'q1']]);
  assert.deepEqual(sent[2], sent[0]);
  assert.notEqual(sent[2].edit, sent[0].edit); // a copy each time: nothing the host holds is changed later
  edits.echoed('p-1');
  assert.deepEqual(sent.at(-1).edit.id, 'p-2');
  const before = sent.length;
  timers[2].run(); // the first edit's last timer, late: it must not send the first again, nor the second early
  assert.equal(sent.length, before);
  timers.at(-1).run(); // the second's own timer: the second again
  assert.deepEqual(sent.at(-1).edit.id, 'p-2');
  assert.equal(sent.length, before + 1);
});

test('two edits of one cell are both sent, in order: the newer never replaces the older', () => {
  const { edits, sent } = harness();
  edits.submit(typed('0: a', 'q1', '5'));
  edits.submit(typed('0: a', 'q1', '6'));
  edits.submit(typed('0: a', 'q1', '7'));
  for (const id of ['p-1', 'p-2', 'p-3']) edits.echoed(id);
  assert.deepEqual(sent.map((event) => event.edit.cells[0][0]), ['5', '6', '7']);
  assert.deepEqual(new Set(sent.map((event) => event.edit.id)).size, 3);
});

test('the pending edits are told as they change, and listed by view', () => {
  const { edits, changes } = harness();
  edits.submit(typed('0: a', 'k1', '1', 'K'));
  edits.submit(typed('0: a', 'q1', '2', 'Q'));
  assert.equal(changes(), 2);
  assert.deepEqual(edits.pending('Q').map((edit) => edit.id), ['p-2']);
  assert.deepEqual(edits.pending('K').map((edit) => edit.id), ['p-1']); // in flight counts
  edits.echoed('nothing');
  assert.equal(changes(), 2);
  edits.echoed('p-1');
  assert.equal(changes(), 3);
  assert.deepEqual(edits.pending('K'), []);
});

test('ids are unique per instrument: a random prefix, then a counter', () => {
  const one = new Edits(() => {}, { later: () => {} }), other = new Edits(() => {}, { later: () => {} });
  const [a, b] = [one.submit(typed('0: a', 'q1', '1')), one.submit(typed('0: a', 'q1', '2'))];
  assert.match(a, /^[0-9a-z]{8}-1$/);
  assert.equal(b, `${a.slice(0, -2)}-2`);
  assert.notEqual(other.submit(typed('0: a', 'q1', '1')), a);
});

test('a pasted block: tabs, else runs of spaces; CRLF; trailing empty lines dropped; a single value', () => {
  assert.deepEqual(pastedBlock('1\t2\n3\t4\n5\t6\n'), [['1', '2'], ['3', '4'], ['5', '6']]);
  assert.deepEqual(pastedBlock('1\t2\r\n3\t4\r\n\r\n'), [['1', '2'], ['3', '4']]);
  assert.deepEqual(pastedBlock('  0.5   -1  2e3\n7 8 9'), [['0.5', '-1', '2e3'], ['7', '8', '9']]);
  assert.deepEqual(pastedBlock('1 2\t3'), [['1 2', '3']]); // a line with a tab splits on tabs alone
  assert.deepEqual(pastedBlock('1\t\t3'), [['1', '', '3']]); // an empty spreadsheet cell stays a cell
  assert.deepEqual(pastedBlock('−0.25'), [['−0.25']]);
  assert.deepEqual(pastedBlock('0.5\n'), [['0.5']]);
  assert.deepEqual(pastedBlock('1\n\n2'), [['1'], [''], ['2']]); // an empty line inside is a row: Python refuses it
  assert.deepEqual(pastedBlock(''), []);
  assert.equal(isBlock('1\t2'), true);
  assert.equal(isBlock('1\n'), true);
  assert.equal(isBlock('1 2'), false); // typed into the input as it is
});

test('the pending texts show over their cells, later over earlier, a block down and right, clipped to the view', () => {
  const view = { rows: ['0: a', '1: b', '2: c'], cols: ['q1', 'q2'], text: ['1', '2', '3', '4', '5', '6'] };
  const shown = overlaid(view, [
    typed('1: b', 'q2', '9'),
    { view: 'Q', row: '1: b', col: 'q1', cells: [['7', '8'], ['−0', '1e-05'], ['x', 'y']] },
    typed('0: a', 'q1', '0.5'),
    typed('9: gone', 'q1', '100'), // a row the state no longer has: shown nowhere
  ]);
  assert.deepEqual(shown.text, ['0.5', '2', '7', '8', '−0', '1e-05']);
  assert.deepEqual(view.text, ['1', '2', '3', '4', '5', '6']); // the data itself untouched
  assert.equal(overlaid(view, []), view);
});

test('Tab and Shift+Tab move along the row, wrapping, held in the view; Enter and Shift+Enter down and up', () => {
  const go = (at, key, shift) => nextCell(at, key, shift, 3, 2);
  assert.deepEqual(go({ i: 0, j: 0 }, 'Tab', false), { i: 0, j: 1 });
  assert.deepEqual(go({ i: 0, j: 1 }, 'Tab', false), { i: 1, j: 0 }); // wraps to the next row
  assert.deepEqual(go({ i: 1, j: 0 }, 'Tab', true), { i: 0, j: 1 }); // and back
  assert.deepEqual(go({ i: 2, j: 1 }, 'Tab', false), { i: 2, j: 1 }); // the last cell: stays
  assert.deepEqual(go({ i: 0, j: 0 }, 'Tab', true), { i: 0, j: 0 }); // the first: stays
  assert.deepEqual(go({ i: 0, j: 1 }, 'Enter', false), { i: 1, j: 1 });
  assert.deepEqual(go({ i: 2, j: 1 }, 'Enter', false), { i: 2, j: 1 });
  assert.deepEqual(go({ i: 1, j: 0 }, 'Enter', true), { i: 0, j: 0 });
  assert.deepEqual(go({ i: 0, j: 0 }, 'Enter', true), { i: 0, j: 0 });
  assert.equal(go({ i: 0, j: 0 }, 'Escape', false), null);
});

test('a number character opens the input; a letter, a space or P does not', () => {
  for (const key of ['0', '9', '.', '-', '+', 'e', 'E', '−']) assert.equal(opensWith(key), true, key);
  for (const key of ['a', 'p', 'P', 'l', ' ', 'Enter', 'ArrowUp', '1.', '']) assert.equal(opensWith(key), false, key);
});

test('a ragged block goes as a rectangle (empty texts, which Python refuses with its words); one no table takes, not at all', () => {
  assert.deepEqual(rectangular([['1', '2'], ['3'], ['4', '5', '6']]), [['1', '2', ''], ['3', '', ''], ['4', '5', '6']]);
  const { edits, sent, refused, timers } = harness();
  edits.submit({ view: 'Q', row: '0: a', col: 'q1', cells: [['1', '2'], ['3']] });
  assert.deepEqual(sent[0].edit.cells, [['1', '2'], ['3', '']]);
  edits.echoed('p-1');
  // Python drops these unechoed (attnviz/component/edits.py typed_block): sent, they would be resent for ever.
  assert.equal(edits.submit({ view: 'Q', row: '0: a', col: 'q1', cells: [['1'.repeat(33)]] }), null);
  assert.match(refused[0], /longer than 32 characters .*Nothing was pasted/);
  assert.equal(edits.submit({ view: 'Q', row: '0: a', col: 'q1', cells: Array(129).fill(['1']) }), null);
  assert.match(refused[1], /129 rows × 1 columns/);
  assert.equal(edits.submit({ view: 'Q', row: '0: a', col: 'q1', cells: [Array(65).fill('1')] }), null);
  assert.deepEqual([sent.length, timers.length, edits.pending().length], [1, 1, 0]);
  edits.submit({ view: 'Q', row: '0: a', col: 'q1', cells: [['1'.repeat(32)]] }); // 32 is taken
  assert.equal(sent.length, 2);
});
