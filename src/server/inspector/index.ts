import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { INSPECTOR_PATH } from '../host-origin-guard.js';
import { INSPECTOR_SCRIPT } from './page-script.js';

/** The inspector page's style sheet (inline: the page loads nothing from elsewhere). */
export const INSPECTOR_STYLE = `
:root { --line:#d0d7de; --ink:#1f2328; --muted:#57606a; --ok:#1a7f37; --ok-bg:#dafbe1; --warn:#9a6700; --warn-bg:#fff8c5;
  --fail:#cf222e; --fail-bg:#ffebe9; --sel:#ddf4ff; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
header { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; padding: 10px 16px; background: #24292f; color: #fff; }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header label { display: flex; gap: 4px; align-items: center; }
header input, header select, header button { font: inherit; padding: 3px 6px; border-radius: 4px; border: 1px solid #57606a; }
header input[type=search] { width: 16em; }
header .state { margin-left: auto; opacity: .85; }
main { display: grid; grid-template-columns: minmax(0, 5fr) minmax(0, 3fr); gap: 12px; padding: 12px 16px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; overflow: auto; max-height: calc(100vh - 80px); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { position: sticky; top: 0; background: #f6f8fa; font-weight: 600; }
tbody tr { cursor: pointer; }
tbody tr:hover { background: #f6f8fa; }
tbody tr.selected { background: var(--sel); }
td.url { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; min-width: 18em; }
td.num { text-align: right; white-space: nowrap; }
.status { font-weight: 600; border-radius: 10px; padding: 0 7px; }
.s2 { color: var(--ok); background: var(--ok-bg); } .s4 { color: var(--warn); background: var(--warn-bg); } .s5 { color: var(--fail); background: var(--fail-bg); }
.summary { color: var(--muted); }
.summary.refused { color: var(--fail); }
#detail { padding: 12px 16px; }
#detail h2 { font-size: 15px; margin: 0 0 8px; word-break: break-all; }
#detail h3 { font-size: 13px; margin: 14px 0 4px; }
#detail dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
#detail dt { color: var(--muted); }
#detail dd { margin: 0; word-break: break-all; }
#detail pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; padding: 8px; white-space: pre-wrap; word-break: break-all; }
.plain { color: var(--fail); font-weight: 600; }
.empty { padding: 16px; color: var(--muted); }
`;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page: one self-contained document, whose CSP allows exactly its inline code, requests to the fake itself, and no framing. */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Requests · monitoring API fake</title>
<style>${INSPECTOR_STYLE}</style>
</head>
<body>
<header>
  <h1>Requests to this fake</h1>
  <label>Find <input id="text" type="search" placeholder="URL, operation, user, problem"></label>
  <label>Status <select id="status"><option value="">any</option><option value="2">2xx</option><option value="3">3xx</option><option value="4">4xx</option><option value="5">5xx</option></select></label>
  <label><input id="pause" type="checkbox"> Pause</label>
  <button id="clear" type="button">Clear</button>
  <span id="count"></span>
  <span id="state" class="state">loading…</span>
</header>
<main>
  <section>
    <table>
      <thead><tr><th>Time (UTC)</th><th>Method</th><th>URL</th><th>Status</th><th>ms</th><th>Caller</th><th>What happened</th></tr></thead>
      <tbody id="rows"></tbody>
    </table>
    <p id="none" class="empty">No request yet: calls of /node/api show up here within a second.</p>
  </section>
  <section id="detail"></section>
</main>
<script>${INSPECTOR_SCRIPT}</script>
</body>
</html>
`;

export const INSPECTOR_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': [
    "default-src 'none'",
    `script-src ${hashOf(INSPECTOR_SCRIPT)}`,
    `style-src ${hashOf(INSPECTOR_STYLE)}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The inspector page: the journal, live; it shows what the control API shows, so the guard gives it the control rule. */
export function registerInspector(app: FastifyInstance): void {
  app.get(INSPECTOR_PATH, (_request, reply) => reply.headers(INSPECTOR_HEADERS).send(INSPECTOR_HTML));
}
