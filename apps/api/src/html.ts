/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/g;

/** Escaped text in which every http(s) URL is a link (the dev outbox page). */
export function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const index = match.index;
    html += escapeHtml(text.slice(last, index));
    const url = match[0];
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = index + url.length;
  }
  return html + escapeHtml(text.slice(last));
}
