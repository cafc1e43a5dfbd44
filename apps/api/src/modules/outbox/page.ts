import type { OutboxMessage } from '@alda/contract/schemas/dev-outbox';
import { escapeHtml, linkify } from '../../html';

/*
 * The /dev/outbox page: plain server-rendered HTML with one <style> element and no script, so it
 * passes the API's Content Security Policy (docs/decisions/0013-content-security-policy.md).
 */
const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#f4f6f8;color:#1a2b3c}
h1{font-size:20px;margin:0 0 4px}
p.hint{margin:0 0 16px;color:#4a5b6c;font-size:14px}
form{margin:0 0 16px;display:flex;gap:8px}
input{flex:1;max-width:320px;padding:6px 8px;font:inherit}
article{background:#fff;border-radius:8px;padding:12px 16px;margin:0 0 12px;box-shadow:0 1px 2px #0002}
header{display:flex;flex-wrap:wrap;gap:8px 16px;font-size:13px;color:#4a5b6c;margin:0 0 8px}
.channel{font-weight:bold;text-transform:uppercase;color:#0b5cab}
h2{font-size:16px;margin:0 0 8px}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}
a{color:#0b5cab}
`;

function renderMessage(message: OutboxMessage): string {
  return `<article>
<header><span class="channel">${escapeHtml(message.channel)}</span><span>${escapeHtml(message.to)}</span><time datetime="${escapeHtml(message.createdAt)}">${escapeHtml(message.createdAt)}</time></header>
${message.subject ? `<h2>${escapeHtml(message.subject)}</h2>` : ''}<pre>${linkify(message.text)}</pre>
</article>`;
}

/** The whole page: newest message first. */
export function renderOutboxPage(messages: OutboxMessage[], to: string | undefined): string {
  const body =
    messages.length > 0
      ? messages.map(renderMessage).join('\n')
      : '<p>No messages yet. Ask for a login code or a password reset in the app.</p>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Outbox · Alda (demo)</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Outbox</h1>
<p class="hint">SMS and e-mails the demo has "sent", newest first (<a href="/dev/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}">refresh</a>, <a href="/dev/outbox.json">JSON</a>). Only in demo mode.</p>
<form method="get" action="/dev/outbox"><input name="to" value="${escapeHtml(to ?? '')}" placeholder="e-mail or 298xxxxxx" aria-label="Recipient"><button type="submit">Filter</button></form>
${body}
</body>
</html>
`;
}
