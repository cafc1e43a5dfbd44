import type { MouseEvent, ReactNode } from 'react';
import { openExternalUrl } from '@/shared/native/browser';
import { isNativePlatform } from '@/shared/native/platform';

/** A run of a message: plain text, or an address to link to. */
export type TextPart =
  { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** Something that starts like a web address; what it is gets decided by {@link safeHref}. */
const CANDIDATE = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://alda.fo/help."). */
const TRAILING = /[.,;:!?)\]}'"»”]+$/;

/** The address as a link target when it is a well-formed http(s) URL; null for anything else. */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Splits a message into text and http(s) links (issue 46: text is never HTML, links are made
 * clickable safely). Only what parses as an http or https URL becomes a link; everything else,
 * markup included, stays text for React to escape.
 */
export function splitLinks(body: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  const pushText = (text: string) => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.kind === 'text') last.text += text;
    else parts.push({ kind: 'text', text });
  };
  for (const match of body.matchAll(CANDIDATE)) {
    const start = match.index;
    const address = match[0].replace(TRAILING, '');
    const href = safeHref(address);
    pushText(body.slice(at, start));
    if (href) parts.push({ kind: 'link', text: address, href });
    else pushText(address);
    at = start + address.length;
  }
  pushText(body.slice(at));
  return parts;
}

/**
 * In the native shell a link opens in the in-app browser (the web view would otherwise leave
 * the app); on the web the anchor's own new tab.
 */
function openOutside(event: MouseEvent<HTMLAnchorElement>, href: string) {
  if (!isNativePlatform()) return;
  event.preventDefault();
  void openExternalUrl(href);
}

/**
 * A message's text as React text nodes (never `dangerouslySetInnerHTML`), with its http(s)
 * addresses as anchors that open outside the app without access to it.
 */
export function MessageText({ body }: { body: string }): ReactNode {
  return splitLinks(body).map((part, index) =>
    part.kind === 'link' ? (
      <a
        key={index}
        href={part.href}
        target="_blank"
        rel="noopener noreferrer"
        className="break-all underline"
        onClick={(event) => openOutside(event, part.href)}
      >
        {part.text}
      </a>
    ) : (
      part.text
    ),
  );
}
