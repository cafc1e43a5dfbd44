import { ACCOUNT_LOCALE_KEY, LOCALE_KEY, TOKEN_KEYS } from './constants';
import { ACCOUNT_RESOURCE_PATHS, CURRENT_USER_PATH, FIRST_SCREEN_GETS } from './start-up';

/**
 * The start-up GETs ({@link CURRENT_USER_PATH}, then {@link ACCOUNT_RESOURCE_PATHS}) that
 * {@link ENTRY_SCRIPT} sends for a saved session while the page's scripts are still on their way
 * (issue 45); the app's HTTP client takes their answers instead of sending the same requests again
 * (`apps/web/src/shared/api/early-requests.ts`).
 */
export const EARLY_GETS: readonly string[] = [
  CURRENT_USER_PATH,
  ...Object.values(ACCOUNT_RESOURCE_PATHS),
];

/** The global under which the inline scripts leave the early requests: `{headers, responses}`. */
export const EARLY_REQUESTS_GLOBAL = '__aldaEarly';

/**
 * The first inline script of the web app's index.html (issue 30, ADR 0072), run before the first
 * paint. In a browser (not the native shell, whose Preferences are not in localStorage):
 * - with a saved access token, it leaves in `window.__aldaEarly` the headers the app would send
 *   its start-up GETs with (the token; the language chosen on the device, else the last
 *   account's, else Faroese) and an empty set of answers, which {@link ENTRY_SCRIPT} fills by
 *   sending those requests right after the app's scripts (issue 45).
 * - it marks `<html data-start="guest">` when the prerendered login screen is what this start
 *   will show — no saved session, Faroese (the prerendered language: neither chosen on the device
 *   nor the last account's), on `/` or the login path — so the stylesheet shows that screen
 *   instead of the splash. Anything else (signed in, English, another path, storage refused)
 *   keeps the splash.
 * The API allows exactly this script by its hash in the CSP (`FIRST_PAINT_SCRIPT_HASH`).
 * Capacitor Preferences keep values in localStorage under `CapacitorStorage.` on the web.
 */
export const FIRST_PAINT_SCRIPT =
  `(function(){try{var s=window.localStorage,p='CapacitorStorage.',c=window.Capacitor;` +
  `if(c&&c.isNativePlatform&&c.isNativePlatform())return;` +
  `var a=s.getItem(p+'${TOKEN_KEYS.access}'),l=s.getItem(p+'${LOCALE_KEY}');` +
  `if(l!=='fo'&&l!=='en'){l=s.getItem(p+'${ACCOUNT_LOCALE_KEY}');if(l!=='fo'&&l!=='en')l=null}` +
  `if(a){window.${EARLY_REQUESTS_GLOBAL}={headers:{Accept:'application/json',` +
  `'Accept-Language':l||'fo',Authorization:'Bearer '+a},responses:{}};return}` +
  `if(s.getItem(p+'${TOKEN_KEYS.refresh}')||(l&&l!=='fo'))return;` +
  `if(/^\\/(rita-inn\\/?)?$/.test(location.pathname))` +
  `document.documentElement.setAttribute('data-start','guest')}catch(e){}})()`;

/** The value of `<html data-start>` for a start that shows the prerendered login screen. */
export const GUEST_START = 'guest';

/** The id of the inert `<template>` in index.html that holds the app's entry script and preloads. */
export const SCRIPTS_TEMPLATE_ID = 'alda-scripts';

/**
 * The attribute of a module preload in that template that belongs to one kind of start only:
 * `guest` (the login screen's chunks), or {@link SIGNED_IN_PRELOAD} and a path (the chunks of the
 * screen a signed-in start opens on, e.g. `user:/` for home). A preload without it is for every start.
 */
export const PRELOAD_FOR_ATTRIBUTE = 'data-for';
/** The prefix of a signed-in start's {@link PRELOAD_FOR_ATTRIBUTE}, followed by the path. */
export const SIGNED_IN_PRELOAD = 'user:';

/**
 * The second inline script of index.html (issue 45), in `<head>` after the first and before the
 * stylesheet (an inline script after a stylesheet waits until it has loaded). It adds the app's
 * scripts, which the build puts in an inert `<template>` (`SCRIPTS_TEMPLATE_ID`) so the browser
 * does not fetch them while it parses. Of the module preloads marked for one kind of start
 * ({@link PRELOAD_FOR_ATTRIBUTE}), it adds a signed-in start's (one {@link FIRST_PAINT_SCRIPT}
 * found a saved session for) for the path opened, and a guest's otherwise: the chunks of the first
 * screen load beside the entry, and no other screen's compete with them.
 * The scripts stay at the low priority the build gives them (`fetchpriority="low"`): the first
 * paint, the prerendered login or the splash, needs only the HTML and the stylesheet.
 * - A guest start (the prerendered login screen, marked by `FIRST_PAINT_SCRIPT`) gets them only
 *   after that screen has been painted: the login then paints on the HTML and the stylesheet
 *   alone, and no script shares the link with them or counts as part of the paint.
 * - Every other start (the splash, whose screen needs the scripts) and a hidden tab get them at
 *   once. A saved session's start-up GETs ({@link EARLY_GETS}, and the first screen's own,
 *   {@link FIRST_SCREEN_GETS}) go out right after them, at low priority too: on HTTP/1.1 a
 *   browser has six connections to the server, and the largest script, the one the first screen
 *   waits for longest, then starts first rather than behind seven small requests.
 * The API allows this script by its hash too.
 */
export const ENTRY_SCRIPT =
  `(function(){var d=document,w=window,t=d.getElementById('${SCRIPTS_TEMPLATE_ID}'),` +
  `e=w.${EARLY_REQUESTS_GLOBAL},u=e?'${SIGNED_IN_PRELOAD}'+location.pathname:'${GUEST_START}';` +
  `function go(){if(!t)return;var c=t.content.children;for(var i=0;i<c.length;i++){var x=c[i],` +
  `f=x.getAttribute('${PRELOAD_FOR_ATTRIBUTE}');if(f&&f!==u)continue;` +
  `var n=d.createElement(x.localName);for(var j=0;j<x.attributes.length;j++)` +
  `n.setAttribute(x.attributes[j].name,x.attributes[j].value);d.head.appendChild(n)}}` +
  `if(d.documentElement.getAttribute('data-start')==='${GUEST_START}'&&d.visibilityState!=='hidden')` +
  `requestAnimationFrame(function(){setTimeout(go,0)});else go();` +
  `if(e){var g=${JSON.stringify(EARLY_GETS).replace(/"/g, "'")}.concat(` +
  `(${JSON.stringify(FIRST_SCREEN_GETS).replace(/"/g, "'")})[location.pathname]||[]);` +
  `for(var i=0;i<g.length;i++)e.responses['/api'+g[i]]=fetch('/api'+g[i],` +
  `{headers:e.headers,priority:'low'})['catch'](function(){return null})}})()`;
