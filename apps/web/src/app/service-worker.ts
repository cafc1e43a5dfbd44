/**
 * Registers the service worker that lets the app shell open without a network (issue 16 item 4,
 * ADR 0069): in a production build in a browser only. Not in the Capacitor shell, whose files
 * are on the phone, nor in development or tests, where there is no `sw.js`. A failure is only
 * logged: the app works as before without it.
 */
export async function registerServiceWorker({
  enabled,
  container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker,
}: {
  enabled: boolean;
  container?: Pick<ServiceWorkerContainer, 'register'>;
}): Promise<ServiceWorkerRegistration | null> {
  if (!enabled || !container) return null;
  try {
    return await container.register('/sw.js', { scope: '/' });
  } catch (error) {
    console.warn('The service worker did not register', error);
    return null;
  }
}
