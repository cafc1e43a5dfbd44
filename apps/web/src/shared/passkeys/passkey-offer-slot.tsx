import { lazy, Suspense } from 'react';
import { useSession } from '@/shared/services/app-services';
import { afterFirstPaint } from '@/shared/ui/first-paint';

/*
 * The offer of a passkey after a password sign-in or a registration (ADR 0097): the sign-in
 * screens mark it in this tab's sessionStorage (as the return path after sign-in), and home or
 * welcome shows it while the mark names the signed-in user. Only these lines are in home's first
 * load: the offer itself (passkey-offer.tsx, with the WebAuthn library) is a chunk of its own,
 * fetched once home is on the display, and only when there is an offer to make.
 */

/** This tab's password sign-in that the offer may follow: `<user id> <epoch ms>`. */
const OFFER_KEY = 'alda.passkeyOffer';

/** Runs `act` on this tab's storage; nothing where storage is refused (private mode, full). */
function withTabStorage<T>(act: (storage: Storage) => T): T | null {
  try {
    return act(window.sessionStorage);
  } catch {
    return null;
  }
}

/** After `userId` signed in with a password or registered: offer a passkey on this device. */
export function markPasskeyOffer(userId: string, at = Date.now()): void {
  withTabStorage((storage) => storage.setItem(OFFER_KEY, `${userId} ${at}`));
}

/** The offer was answered (or is not to be made): not again in this tab. */
function forgetPasskeyOffer(): void {
  withTabStorage((storage) => storage.removeItem(OFFER_KEY));
}

const PasskeyOffer = lazy(() =>
  afterFirstPaint()
    .then(() => import('./passkey-offer'))
    .then((m) => ({ default: m.PasskeyOffer })),
);

/** Where home and welcome show the offer: nothing unless this tab's sign-in asks for it. */
export function PasskeyOfferSlot() {
  const { user } = useSession();
  const [userId, at] = withTabStorage((s) => s.getItem(OFFER_KEY)?.split(' ')) ?? [];
  // Only in a browser with WebAuthn: what the library's `browserSupportsWebAuthn()` checks,
  // without loading it.
  if (!user || userId !== user.id || typeof window.PublicKeyCredential !== 'function') return null;
  return (
    <Suspense fallback={null}>
      <PasskeyOffer userId={user.id} signedInAt={Number(at)} onAnswered={forgetPasskeyOffer} />
    </Suspense>
  );
}
