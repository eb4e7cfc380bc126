/**
 * The inspector page's script, inline (the page loads nothing from elsewhere). It polls the
 * control API's journal twice a second and renders with textContent only: URLs, origins,
 * error texts and answer bodies come from callers and are never parsed as HTML.
 */
export const INSPECTOR_SCRIPT = String.raw`
'use strict';
const POLL_MS = 500;
const LIMIT = 500;
const $ = (id) => document.getElementById(id);
let records = [];
let selected;
let paused = false;

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

function queryOf(url) {
  const q = url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
}

/** One line a developer reads at a glance, e.g. "your page sent limit=abc: 400, limit must match pattern ...". */
function summaryOf(r) {
  if (!r.error) return r.status + (r.auth ? ' as ' + r.auth.login : '');
  const details = r.error.details || [];
  const query = queryOf(r.url);
  const sent = details.filter((d) => d.location === 'query' && query.has(d.name)).map((d) => d.name + '=' + query.get(d.name));
  const problems = details.length > 0 ? details.map((d) => d.name + ' ' + d.problem).join('; ') : r.error.code + ': ' + r.error.message;
  return (sent.length > 0 ? 'your page sent ' + sent.join('&') + ': ' : '') + r.status + ', ' + problems;
}

const timeOf = (ms) => new Date(ms).toISOString().slice(11, 23);
const statusClass = (status) => 'status s' + String(status)[0];

function visible() {
  const text = $('text').value.trim().toLowerCase();
  const status = $('status').value;
  return records.filter((r) => {
    if (status && String(r.status)[0] !== status[0]) return false;
    if (!text) return true;
    return [r.method, r.url, r.operationId || '', r.auth ? r.auth.login : '', String(r.status), summaryOf(r)].join(' ').toLowerCase().includes(text);
  });
}

function renderList() {
  const shown = visible();
  const rows = shown.map((r) =>
    el('tr', { className: r.id === selected ? 'selected' : '', onclick: () => select(r.id) },
      el('td', { className: 'num', textContent: timeOf(r.time) }),
      el('td', { textContent: r.method }),
      el('td', { className: 'url', textContent: r.url }),
      el('td', {}, el('span', { className: statusClass(r.status), textContent: String(r.status) })),
      el('td', { className: 'num', textContent: r.durationMs.toFixed(1) }),
      el('td', { textContent: r.auth ? r.auth.login + ' (' + r.auth.method + ')' : '' }),
      el('td', { className: r.error ? 'summary refused' : 'summary', textContent: summaryOf(r) })));
  rows.forEach((row, i) => (row.dataset.id = String(shown[i].id)));
  $('rows').replaceChildren(...rows);
  $('count').textContent = shown.length + ' of ' + records.length + ' requests';
  $('none').hidden = shown.length > 0;
}

function pair(name, value) {
  return value === undefined || value === '' ? [] : [el('dt', { textContent: name }), el('dd', { textContent: value })];
}

/** A successful answer's body, pretty-printed as text (tokens and session ids arrive masked), or why it is not shown. */
function successBody(r) {
  const note = (text) => el('p', { className: 'summary', textContent: text });
  if (r.responseBodyDropped) return [note('Its body was dropped to make room for newer answers.')];
  const shown = [];
  if (r.responseBody !== undefined) shown.push(el('pre', { textContent: JSON.stringify(r.responseBody, null, 2) }));
  else if (r.responseText !== undefined) shown.push(el('pre', { textContent: r.responseText }));
  if (r.responseBodyTruncated) shown.push(note(r.responseText === undefined && r.responseBody === undefined ? 'Its body was too long to keep whole, and its head is not shown: it may hold a secret.' : 'Only the head of its body was kept.'));
  return shown.length > 0 ? shown : [note('No body.')];
}

function renderDetail() {
  const r = records.find((x) => x.id === selected);
  const pane = $('detail');
  if (!r) {
    pane.replaceChildren(el('p', { className: 'empty', textContent: 'Pick a request to see it in full.' }));
    return;
  }
  const params = [...queryOf(r.url)];
  const answer = r.error ? [el('pre', { textContent: JSON.stringify(r.error, null, 2) })] : successBody(r);
  pane.replaceChildren(
    el('h2', { textContent: r.method + ' ' + r.url }),
    el('p', { className: r.error ? 'plain' : '', textContent: summaryOf(r) }),
    el('h3', { textContent: 'Request' }),
    el('dl', {}, ...pair('Request #', String(r.id)), ...pair('Time', new Date(r.time).toISOString()), ...pair('Operation', r.operationId || '(no operation has this path)'),
      ...pair('Caller', r.auth ? r.auth.login + ' (' + r.auth.userId + ') by ' + r.auth.method : 'not authenticated'), ...pair('Origin', r.origin)),
    ...(params.length > 0 ? [el('h3', { textContent: 'Query parameters' }), el('dl', {}, ...params.flatMap(([k, v]) => pair(k, v === '' ? '""' : v)))] : []),
    el('h3', { textContent: 'Answer' }),
    el('dl', {}, ...pair('Status', String(r.status)), ...pair('Duration', r.durationMs.toFixed(1) + ' ms'), ...pair('Error code', r.error && r.error.code)),
    ...answer,
  );
  pane.dataset.id = String(r.id);
}

function select(id) {
  selected = id;
  renderList();
  renderDetail();
}

async function poll() {
  if (!paused) {
    try {
      const response = await fetch('/__control/requests?limit=' + LIMIT, { cache: 'no-store', headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(response.status + ' ' + (await response.text()));
      records = await response.json();
      $('state').textContent = 'updated ' + new Date().toLocaleTimeString();
      renderList();
      if (selected !== undefined && $('detail').dataset.id !== String(selected)) renderDetail();
    } catch (error) {
      $('state').textContent = 'cannot read the journal: ' + error.message;
    }
  }
  setTimeout(poll, POLL_MS);
}

$('text').addEventListener('input', renderList);
$('status').addEventListener('change', renderList);
$('pause').addEventListener('change', (event) => (paused = event.target.checked));
$('clear').addEventListener('click', async () => {
  await fetch('/__control/requests', { method: 'DELETE' });
  records = [];
  select(undefined);
});
renderDetail();
poll();
`;
