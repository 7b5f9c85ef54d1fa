// What the rail sends to Python, one change a run. A student clicking faster than the runs finish (50 clicks on
// Causal mask, 20 ms apart) would otherwise have clicks merged or lost in flight, and a run drawn in the middle would
// put an old value back under the pointer, so that the next click toggled from it. So a change is sent once the one
// before it is drawn (its value shown by Python, or, for an action such as Undo, any draw); a newer value of a field
// replaces one not yet sent (the last choice counts), each action is sent; and a control shows the student's choice
// until Python draws it.

export const NO_DRAW_MS = 2000; // a change Python never draws (a value it refused) lets the next one go after this

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export class Sends {
  constructor(send, { later = (run, ms) => setTimeout(run, ms), busy = () => {} } = {}) {
    this.send = send; // (field, value): to Python
    this.later = later;
    this.busy = busy; // told true while a change waits to be sent or drawn, false when every one is drawn
    this.queue = []; // [{field, value, action}] not sent yet, oldest first
    this.sent = 0; // sends so far, to number them
    this.waiting = null; // the change sent and not drawn yet, with its number: a late timer cannot release a newer one
  }

  // A change from a control: ``action`` for a button (each press counts), else a value (the newest counts).
  submit(field, value, { action = false } = {}) {
    if (!action) this.queue = this.queue.filter((queued) => queued.action || queued.field !== field);
    this.queue.push({ field, value, action });
    this.flush();
  }

  // Whether ``field`` has a value on its way: its control shows that, not the value Python drew.
  holds(field) {
    return [this.waiting, ...this.queue].some((change) => change && !change.action && change.field === field);
  }

  // Python has drawn the rail with ``values`` (field -> value): the change on its way is drawn if its value is there.
  drawn(values) {
    const { waiting } = this;
    if (waiting && (waiting.action || same(values[waiting.field], waiting.value))) this.waiting = null;
    this.flush();
  }

  flush() {
    if (!this.waiting && this.queue.length) {
      this.waiting = { ...this.queue.shift(), number: ++this.sent };
      const { number } = this.waiting;
      this.send(this.waiting.field, this.waiting.value);
      this.later(() => this.release(number), NO_DRAW_MS);
    }
    this.busy(Boolean(this.waiting || this.queue.length));
  }

  release(number) {
    if (this.waiting?.number !== number) return;
    this.waiting = null;
    this.flush();
  }
}
