import { LinkifyIt } from 'linkify-it';

/*
 * Links in a support message (issue 46 "Text is never rendered as HTML. Links are made clickable
 * safely"): the one home of that rule for the app and the console. linkify-it (markdown-it's
 * link finder) finds the addresses, with their trailing punctuation and balanced brackets
 * handled; only `http:` and `https:` addresses that parse as URLs become links. Everything else
 * — other schemes, bare domains, e-mail addresses, markup — stays text for React to escape.
 */

/** A run of a message: plain text, or an address to link to. */
export type TextPart =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const finder = new LinkifyIt({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false })
  .add('ftp:', null)
  .add('mailto:', null)
  .add('//', null);

/** The address as a link target when it is a well-formed http(s) URL; null for anything else. */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits a message into text and http(s) links, in order; joined, the parts are the text. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const pushText = (piece: string) => {
    if (!piece) return;
    const last = parts.at(-1);
    if (last?.kind === 'text') last.text += piece;
    else parts.push({ kind: 'text', text: piece });
  };
  let at = 0;
  for (const match of finder.match(text) ?? []) {
    const href = safeHref(match.url);
    pushText(text.slice(at, match.index));
    if (href) parts.push({ kind: 'link', text: match.raw, href });
    else pushText(match.raw);
    at = match.lastIndex;
  }
  pushText(text.slice(at));
  return parts;
}
