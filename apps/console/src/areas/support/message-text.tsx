import { Fragment } from 'react';
import { cx } from '@/shared/cx';

/*
 * A message as the customer or the desk wrote it (issue 46 "Text is never rendered as HTML.
 * Links are made clickable safely"): React renders it as text — `<b>x</b>` shows as those seven
 * characters — with its line breaks kept, and only `http:` and `https:` addresses become links,
 * opened in a new tab without the console as opener or referrer. Anything else that looks like an
 * address (`javascript:`, `data:`, `file:`) stays text.
 */

/** A run of plain text, or an address to link. */
export type TextPiece =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** An http(s) address up to the next space or character that cannot be part of one in text. */
const ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence after an address rather than belonging to it. */
const TRAILING = /[.,;:!?'")\]}]$/;

/** Trailing punctuation off an address; a `)` stays when the address opened one ("(…)" URLs). */
function trimAddress(raw: string): string {
  let address = raw;
  while (TRAILING.test(address)) {
    const last = address.at(-1);
    if (last === ')') {
      const opened = address.split('(').length - 1;
      const closed = address.split(')').length - 1;
      if (opened >= closed) break;
    }
    address = address.slice(0, -1);
  }
  return address;
}

/** The address as a link target, or null when it is not a well-formed http(s) URL. */
function safeHref(address: string): string | null {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits a message into text and http(s) links, in order; joined, the pieces are the text. */
export function splitLinks(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let at = 0;
  const push = (piece: TextPiece) => {
    const last = pieces.at(-1);
    if (piece.kind === 'text' && last?.kind === 'text') last.text += piece.text;
    else if (piece.text) pieces.push(piece);
  };
  for (const match of text.matchAll(ADDRESS)) {
    const start = match.index;
    const address = trimAddress(match[0]);
    const href = safeHref(address);
    push({ kind: 'text', text: text.slice(at, start) });
    push(href ? { kind: 'link', text: address, href } : { kind: 'text', text: address });
    at = start + address.length;
  }
  push({ kind: 'text', text: text.slice(at) });
  return pieces;
}

/** A message's text: line breaks kept, long words broken, http(s) addresses as safe links. */
export function MessageText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={cx('break-words whitespace-pre-wrap', className)}>
      {/* The pieces of one text never move: their place is their identity. */}
      {splitLinks(text).map((piece, index) =>
        piece.kind === 'link' ? (
          <a
            key={index}
            href={piece.href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="font-medium text-ocean-700 underline underline-offset-2 hover:text-ocean-900"
          >
            {piece.text}
          </a>
        ) : (
          <Fragment key={index}>{piece.text}</Fragment>
        ),
      )}
    </p>
  );
}
