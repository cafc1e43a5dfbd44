import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onAppUrlOpen } from '@/shared/native/app-events';
import { closeInAppBrowser } from '@/shared/native/browser';

type Subscribe = typeof onAppUrlOpen;

/**
 * The app path of a link the OS opened the app with, or null when it has none. An https link
 * (App Link / Universal Link on the web app's domain) keeps its path, query and hash; the custom
 * scheme's `fo.alda.selfcare://betaling/123` reads its host as the first path segment.
 */
export function deepLinkPath(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const web = parsed.protocol === 'https:' || parsed.protocol === 'http:';
  const path = web ? parsed.pathname : `/${parsed.host}${parsed.pathname}`.replace(/\/+$/, '');
  const clean = path.replace(/\/{2,}/g, '/');
  if (clean === '' || clean === '/') return web ? '/' : null;
  return `${clean}${parsed.search}${parsed.hash}`;
}

/**
 * Native shell (ADR 0054): a link the OS hands to the app opens its screen — the card page's
 * return to `/betaling/:orderId`, a password-reset link — and closes the in-app browser it came
 * from. The OS only hands over links the app claims, so any path is an app path; an unknown one
 * lands on the app's not-found screen.
 */
export function useDeepLinks(
  subscribe: Subscribe = onAppUrlOpen,
  closeBrowser: () => Promise<void> = closeInAppBrowser,
): void {
  const navigate = useNavigate();
  useEffect(
    () =>
      subscribe((url) => {
        const path = deepLinkPath(url);
        if (path === null) return;
        void closeBrowser();
        void navigate(path);
      }),
    [subscribe, closeBrowser, navigate],
  );
}
