// What a view says in words: the hover sentence of a cell, and the table a screen reader reads (hidden from sight).

// What a hover (or the keyboard, ``how`` = 'press Enter') says about cell k (of a covered view, in predict mode: that
// a click, or Enter, predicts its key).
export function sentence(view, k, how = 'click') {
  const cols = view.ticks.length;
  const where = `${view.rows[Math.floor(k / cols)]} → ${view.cols[k % cols]}`;
  if (view.cover) return `${where}: ${how} to predict this key`;
  return view.colour[k] === null ? `${where}: masked, score −∞, weight 0` : `${where}: ${view.value_name} ${view.numbers[k]}`;
}

// Every cell's text under its row and column, rewritten in place when the numbers change.
export function updateTable(table, view) {
  table.hidden = view.reader === false; // read another way (the Real model's overview: a table a layer beside it)
  if (table.hidden) {
    delete table.dataset.shape;
    return table.replaceChildren();
  }
  const cols = view.ticks.length;
  const shape = `${view.rows.join('\u0000')}|${view.cols.join('\u0000')}`;
  if (table.dataset.shape !== shape) {
    table.dataset.shape = shape;
    table.replaceChildren();
    table.createCaption();
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
  const title = view.cover ? `${view.title}: ${view.cover}` : view.title;
  if (table.caption.textContent !== title) table.caption.textContent = title;
  const cells = table.tBodies[0].rows;
  const changed = new Set(view.changed);
  // Every cell's value at any size: its text, or above the text limit its hover number (masked: "masked").
  view.colour.forEach((position, k) => {
    const cell = cells[Math.floor(k / cols)].cells[1 + (k % cols)];
    const text = view.cover ? '' : view.text.length ? view.text[k] : position === null ? 'masked' : view.numbers[k];
    const masked = position === null ? 'true' : 'false';
    if (cell.textContent !== text) cell.textContent = text;
    if (cell.dataset.masked !== masked) cell.dataset.masked = masked;
    const said = changed.has(k) ? `${text}, changed` : null; // a change is said, not only boxed
    if (cell.getAttribute('aria-label') !== said) {
      if (said) cell.setAttribute('aria-label', said);
      else cell.removeAttribute('aria-label');
    }
  });
}
