import { ACCOUNT_LOCALE_KEY, LOCALE_KEY, TOKEN_KEYS } from './constants';

/**
 * The one inline script of the web app's index.html (issue 30, ADR 0072), run before the first
 * paint: it marks `<html data-start="guest">` when the prerendered login screen is what this
 * start will show — a browser (not the native shell) with no saved session, Faroese (the
 * prerendered language: neither chosen on the device nor the last account's), on `/` or the login path — so the stylesheet shows that screen instead
 * of the splash. Anything else (signed in, English, another path, storage refused) keeps the
 * splash. The API allows exactly this script by its hash in the CSP (`FIRST_PAINT_SCRIPT_HASH`).
 * Capacitor Preferences keep values in localStorage under `CapacitorStorage.` on the web.
 */
export const FIRST_PAINT_SCRIPT =
  `(function(){try{var s=window.localStorage,p='CapacitorStorage.',c=window.Capacitor;` +
  `if(c&&c.isNativePlatform&&c.isNativePlatform())return;` +
  `if(s.getItem(p+'${TOKEN_KEYS.access}')||s.getItem(p+'${TOKEN_KEYS.refresh}'))return;` +
  `var l=s.getItem(p+'${LOCALE_KEY}')||s.getItem(p+'${ACCOUNT_LOCALE_KEY}');if(l&&l!=='fo')return;` +
  `if(/^\\/(rita-inn\\/?)?$/.test(location.pathname))` +
  `document.documentElement.setAttribute('data-start','guest')}catch(e){}})()`;

/** The value of `<html data-start>` for a start that shows the prerendered login screen. */
export const GUEST_START = 'guest';
