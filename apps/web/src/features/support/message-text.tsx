import type { MouseEvent, ReactNode } from 'react';
import { openExternalUrl } from '@/shared/native/browser';
import { isNativePlatform } from '@/shared/native/platform';
import { splitLinks } from '@alda/contract/format/links';

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
