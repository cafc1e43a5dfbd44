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

/** The id of the inert `<template>` in index.html that holds the app's entry script and preloads. */
export const SCRIPTS_TEMPLATE_ID = 'alda-scripts';

/**
 * The second inline script of index.html (issue 45), at the end of `<body>`: it adds the app's
 * scripts, which the build puts in an inert `<template>` (`SCRIPTS_TEMPLATE_ID`) so the browser
 * does not fetch them while it parses. For a guest start (the prerendered login screen, marked by
 * `FIRST_PAINT_SCRIPT`) it waits until that screen has been painted: the login then paints on the
 * HTML and the stylesheet alone, and no script shares the link with them or counts as part of
 * the paint. A hidden tab (nothing to paint) and every other start (the splash, whose screen
 * needs the scripts) get them at once. The API allows this script by its hash too.
 */
export const ENTRY_SCRIPT =
  `(function(){var d=document,t=d.getElementById('${SCRIPTS_TEMPLATE_ID}');if(!t)return;` +
  `function go(){var c=t.content.children;for(var i=0;i<c.length;i++){var e=c[i],` +
  `n=d.createElement(e.localName);for(var j=0;j<e.attributes.length;j++)` +
  `n.setAttribute(e.attributes[j].name,e.attributes[j].value);d.head.appendChild(n)}}` +
  `if(d.documentElement.getAttribute('data-start')==='${GUEST_START}'&&d.visibilityState!=='hidden')` +
  `requestAnimationFrame(function(){setTimeout(go,0)});else go()})()`;
