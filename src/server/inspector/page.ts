import { createHash } from 'node:crypto';
import { INSPECTOR_SCRIPT } from './page-script.js';
import { INSPECTOR_STYLE } from './page-style.js';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page and its headers: one self-contained document (inline style and script, no font,
 * no image), whose Content-Security-Policy allows exactly that inline code and requests to
 * the fake itself, and no framing by another page.
 */
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
