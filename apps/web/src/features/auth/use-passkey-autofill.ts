import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ApiError } from '@/shared/api/http';
import { useAppServices } from '@/shared/services/app-services';

export interface PasskeyAutofillEvents {
  /** A passkey was picked from the field's suggestions: the sign-in is under way. */
  onPicked: () => void;
  /** The sign-in with the picked passkey failed (the suggestions are offered again). */
  onFailed: (error: ApiError) => void;
}

/**
 * The passkeys of this device among the sign-in field's suggestions (WebAuthn conditional
 * mediation, ADR 0097): started once the screen has mounted — the field with
 * `autocomplete="username webauthn"` is then in the page — and stopped when it unmounts. The
 * WebAuthn code (passkey-sign-in.ts and @simplewebauthn/browser) is loaded only then. Returns
 * whether a picked passkey is signing in.
 */
export function usePasskeyAutofill(events: PasskeyAutofillEvents): boolean {
  const { http, signIn } = useAppServices();
  const navigate = useNavigate();
  const [signingIn, setSigningIn] = useState(false);
  // The screen's latest handlers, without starting the autofill again when they change.
  const handlers = useRef(events);
  useEffect(() => {
    handlers.current = events;
  });

  useEffect(() => {
    const controller = new AbortController();
    import('./passkey-sign-in')
      .then(({ offerPasskeyAutofill }) =>
        offerPasskeyAutofill(
          { http, signIn, navigate: (path) => navigate(path, { replace: true }) },
          {
            signal: controller.signal,
            onPicked: () => {
              setSigningIn(true);
              handlers.current.onPicked();
            },
            onFailed: (error) => {
              setSigningIn(false);
              handlers.current.onFailed(error);
            },
          },
        ),
      )
      // Not loaded (offline): the field works without its passkeys.
      .catch((error: unknown) => console.warn('Passkey autofill could not start', error));
    return () => controller.abort();
    // Once per visit of the screen: the services and the data router's navigate stay the same.
  }, [http, signIn, navigate]);

  return signingIn;
}
