/**
 * Paths of the web app that the server links to, so both sides write them once: the card page's
 * return address, the password reset link in the e-mail, and the App Link / Universal Link
 * association files (ADR 0054). The web app's route table builds its routes from these.
 */

/** The live payment status screen the provider's card page returns to (SPEC §4 "Payment flow"). */
export const PAYMENT_RETURN_PATH = '/betaling';

/** The app address of one order's payment status: `/betaling/<orderId>`. */
export const paymentReturnPath = (orderId: string) =>
  `${PAYMENT_RETURN_PATH}/${encodeURIComponent(orderId)}`;

/** Where the e-mailed reset link opens: `/nytt-loyniord?token=…` (SPEC §2 reset-password). */
export const RESET_PASSWORD_PATH = '/nytt-loyniord';

/**
 * The paths the native app claims as App Links (Android) and Universal Links (iOS), ADR 0054: the
 * API's `/.well-known/apple-app-site-association` lists them as they are (`*` matches the rest of
 * the path), and the Android manifest's intent filter must name the same ones (`/x/*` as
 * `pathPrefix="/x/"`, any other as `path`). apps/web/native/native-projects.test.ts keeps the
 * manifest equal to this list.
 */
export const APP_LINK_PATHS = [`${PAYMENT_RETURN_PATH}/*`, RESET_PASSWORD_PATH] as const;

/** The customer's signed-in devices (ADR 0059), linked from the new-device e-mail. */
export const SIGNED_IN_DEVICES_PATH = '/min-brukari/eindir';

/** The customer's passkeys (ADR 0097), linked from the new-passkey e-mail. */
export const PASSKEYS_PATH = '/min-brukari/lykilkodur';

/** The monthly price and its payment, linked from a failed charge on the agreement (ADR 0081). */
export const MONTHLY_PRICE_PATH = '/menu/manadargjald';

/** The monthly bills (ADR 0098), and one bill, linked from the new-bill notification. */
export const BILLS_PATH = '/menu/rokningar';
export const billPath = (billId: string) => `${BILLS_PATH}/${encodeURIComponent(billId)}`;

/** A line's usage history (ADR 0066), linked from its usage alerts: `/nytsla/<lineId>`. */
export const USAGE_HISTORY_PATH = '/nytsla';
export const usageHistoryPath = (lineId: string) =>
  `${USAGE_HISTORY_PATH}/${encodeURIComponent(lineId)}`;

/** A number's lock and port-out code (issue 32, ADR 0076): `/nummarlas/<lineId>`. */
export const NUMBER_LOCK_PATH = '/nummarlas';
export const numberLockPath = (lineId: string) =>
  `${NUMBER_LOCK_PATH}/${encodeURIComponent(lineId)}`;

/**
 * Where the unlock e-mail's one-tap cancel opens: `/nummarlas-stedga?token=…`. It works without
 * signing in: whoever asked for the unlock may have taken over the account (ADR 0076).
 */
export const UNLOCK_CANCEL_PATH = '/nummarlas-stedga';

/**
 * A number's roaming spend cap (issue 33 §2, ADR 0078): `/utreidsluloft/<lineId>`, linked from
 * home's abroad card, the manage screen and the cap notifications.
 */
export const ROAMING_CAP_PATH = '/utreidsluloft';
export const roamingCapPath = (lineId: string) =>
  `${ROAMING_CAP_PATH}/${encodeURIComponent(lineId)}`;

/**
 * The customer's support conversations (issue 46, ADR 0088): the list, and one thread
 * (`/menu/skriva-til-okkum/<id>`), linked from the "answer waiting" notification and e-mail.
 */
export const SUPPORT_PATH = '/menu/skriva-til-okkum';
export const supportThreadPath = (conversationId: string) =>
  `${SUPPORT_PATH}/${encodeURIComponent(conversationId)}`;
