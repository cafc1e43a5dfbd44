import { Fragment } from 'react';
import { splitLinks } from '@alda/contract/format/links';
import { cx } from '@/shared/cx';

/*
 * A message as the customer or the desk wrote it (issue 46 "Text is never rendered as HTML.
 * Links are made clickable safely"): React renders it as text — `<b>x</b>` shows as those seven
 * characters — with its line breaks kept, and only `http:` and `https:` addresses become links,
 * opened in a new tab without the console as opener or referrer. Anything else that looks like an
 * address (`javascript:`, `data:`, `file:`) stays text.
 */

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
