import {
  BILLS_PATH,
  NUMBER_LOCK_PATH,
  PASSKEYS_PATH,
  PAYMENT_RETURN_PATH,
  MONTHLY_PRICE_PATH,
  ROAMING_CAP_PATH,
  RESET_PASSWORD_PATH,
  SIGNED_IN_DEVICES_PATH,
  SUPPORT_PATH,
  UNLOCK_CANCEL_PATH,
  USAGE_HISTORY_PATH,
} from '@alda/contract/app-paths';

/**
 * Every route of the app (SPEC §2), each written once, as its full path pattern. The router takes
 * its segments from here (`segment`), and every link and redirect either names a route here or
 * fills one in (`href`). Paths the server also links to (the payment return, the reset link) come
 * from the contract.
 */
export const ROUTES = {
  home: '/',
  welcome: '/valkomin',

  login: '/rita-inn',
  loginPhone: '/rita-inn/vid-telefonnummari',
  loginPin: '/rita-inn/pin',
  loginEmail: '/rita-inn/vid-telduposti',
  forgotPassword: '/gloymt-loyniord',
  resetPassword: RESET_PASSWORD_PATH,
  register: '/stovna-brukara',

  menu: '/menu',
  terms: '/menu/treytir',
  privacy: '/menu/privatlivspolitikkur',
  orders: '/menu/bilegingar',
  /** One order with its provisioning steps (SPEC §4 "Subscription processing can take days"). */
  order: '/menu/bilegingar/:orderId',
  plans: '/menu/hald',
  plan: '/menu/hald/:planId',
  activity: '/menu/virksemi',
  receipts: '/menu/kvittanir',
  receipt: '/menu/kvittanir/:receiptId',
  /** The monthly bills, newest first (ADR 0098). */
  bills: BILLS_PATH,
  /** One bill: its numbers' sections, VAT, how it was paid or how to pay it. */
  bill: `${BILLS_PATH}/:billId`,
  /** One number's itemised use in a bill's month (its calls, SMS and data). */
  billUsage: `${BILLS_PATH}/:billId/nummar/:phoneNumber`,
  monthlyPrice: MONTHLY_PRICE_PATH,
  /** The customer's support conversations (issue 46); the answer notice links to a thread. */
  support: SUPPORT_PATH,
  /** A new conversation: `?subject=order&id=<id>` when written from an item, else general. */
  supportNew: `${SUPPORT_PATH}/nytt`,
  supportThread: `${SUPPORT_PATH}/:conversationId`,
  language: '/menu/mal',
  theme: '/menu/utsjond',

  profile: '/min-brukari',
  profileEdit: '/min-brukari/broyt',
  /** SPEC §2 profile.agreement: the card on file. */
  agreement: '/min-brukari/gjaldsavtala',
  profilePassword: '/min-brukari/loyniord',
  /** The signed-in devices: sign out one or all others (ADR 0059); the new-device e-mail links here. */
  profileDevices: SIGNED_IN_DEVICES_PATH,
  /** The customer's passkeys (ADR 0097): make, rename, delete; the new-passkey e-mail links here. */
  passkeys: PASSKEYS_PATH,

  notifications: '/frabodanir',
  giveData: '/gev-data',
  requestData: '/bidja-um-data',
  /** SPEC §4 "Payment flow": the live status of one order's payment; the card page returns here. */
  paymentStatus: `${PAYMENT_RETURN_PATH}/:orderId`,
  /** Buy an extra package (SPEC §1); `?nummar=` chooses the line. */
  buyPackage: '/keyp-pakka',
  /** Top up a prepaid (talutíð) line (SPEC §1); `?nummar=` chooses the line. */
  topUp: '/fyll-uppa',
  /**
   * SPEC §2 new-subscription (no footer), issue 11: `:planType` is `individual_plan` or
   * `family_plan`; `?hald=` preselects a plan, `?stig=` is the step.
   */
  newSubscription: '/nytt-hald/:planType',
  /** SPEC §2 add-subscription (no footer): choose individual or family, then the same steps. */
  addSubscription: '/legg-hald-afturat',

  /** A number's data use (its line id): this month day by day and the last 6 months (ADR 0066). */
  usageHistory: `${USAGE_HISTORY_PATH}/:id`,
  familyMember: '/familju-limur/:id',
  familyMemberProcessing: '/familju-limur/vidgerd/:phoneNumber',
  manageSubscription: '/umsit-hald/:phoneNumber',
  manageFamily: '/umsit-familju-hald',
  /** The eSIM of a number (its line id): QR code, iOS one-tap link, the parts to type in. */
  esimInstall: '/sim-kort/:lineId/esim',
  /** A replacement SIM or a switch to eSIM for a number (its line id). */
  simReplacement: '/sim-kort/:lineId/nytt-kort',
  /** A number's lock, port-out code and latest SIM change (its line id; issue 32, ADR 0076). */
  numberLock: `${NUMBER_LOCK_PATH}/:lineId`,
  /** A number's roaming spend cap (its line id; issue 33 §2, ADR 0078). */
  roamingCap: `${ROAMING_CAP_PATH}/:lineId`,
  /** The unlock e-mail's one-tap cancel (`?token=`): signed in or not (ADR 0076). */
  unlockCancel: UNLOCK_CANCEL_PATH,

  // The subscription lifecycle (SPEC §2 "no footer", issue 12; ADR 0056 maps each to its call).
  /** SPEC §2 subscription-update (owner): another plan for the account of number `:id`. */
  planChange: '/dagfor-hald/:id',
  /** SPEC §2 add-family-member (owner): a person, their number and SIM, as in sign-up. */
  addFamilyMember: '/stovna-familju-lim',
  /** SPEC §2 transfer-family-member (owner): member `:id` to an individual plan of its own. */
  transferFamilyMember: '/flyt-hald/familju-lim/:id',
  /** SPEC §2 transfer-family-to-individual (owner): the family with one member left. */
  familyToIndividual: '/broyt-til-einstaklingahald',
  /** SPEC §2 transfer-individual-to-family (owner): the individual account becomes a family. */
  individualToFamily: '/broyt-til-familjuhald',
  /** SPEC §2 transfer-to-own-individual: my number out of a family onto my own plan. */
  transferToIndividual: '/flyt-til-einstaklingahald',
  /** SPEC §2 transfer-to-own-family: my number into my own family plan (joined or made). */
  transferToFamily: '/flyt-til-familjuhald',
  /** A number offered to me by another person (a line hand-over): accept or decline. */
  handover: '/yvirtaka/:id',
} as const;

/**
 * Query parameters of the purchase screens, written once for the links that set them and the
 * screens that read them: `?nummar=` picks the number, `pakki` and `upphaedd` what was chosen.
 */
export const QUERY = {
  line: 'nummar',
  package: 'pakki',
  amount: 'upphaedd',
  /** Buying a package: the member's package request the owner approves (`?umbon=<id>`, ADR 0068). */
  request: 'umbon',
  /** Sign-up: the plan chosen on the plans screens (`?hald=<planId>`). */
  plan: 'hald',
  /** Sign-up: the step shown (`?stig=nummar`), so browser back goes to the previous step. */
  step: 'stig',
  /** The roaming cap screen opened from home's stop: offer the next cap at once (`?haekka=1`). */
  raise: 'haekka',
  /**
   * A new support conversation (issue 46): what it is about (`subject`: the contract's subject
   * type), the item's id and, to show before the server answers, its reference (`ref`).
   */
  supportSubject: 'subject',
  supportSubjectId: 'id',
  supportReference: 'ref',
} as const;

export type RoutePattern = (typeof ROUTES)[keyof typeof ROUTES];

/** The `:name` parameters of a pattern: `'/a/:id/b/:x'` → `'id' | 'x'`. */
export type RouteParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | RouteParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/**
 * The router's path of `pattern` inside the route at `parent`: `segment(ROUTES.terms,
 * ROUTES.menu)` is `'treytir'`. Throws when the route is not under that parent, so a route moved
 * in the table cannot silently end up at the wrong place in the tree.
 */
export function segment(pattern: RoutePattern, parent: RoutePattern = ROUTES.home): string {
  const prefix = parent === '/' ? '/' : `${parent}/`;
  if (!pattern.startsWith(prefix) || pattern === parent)
    throw new Error(`route ${pattern} is not under ${parent}`);
  return pattern.slice(prefix.length);
}

/**
 * A link to a route: its parameters filled in (URL-encoded) and an optional query, e.g.
 * `href(ROUTES.familyMember, { id })` → `/familju-limur/<id>`,
 * `href(ROUTES.buyPackage, {}, { [QUERY.line]: '214455' })` → `/keyp-pakka?nummar=214455`.
 */
export function href<P extends RoutePattern>(
  pattern: P,
  params: { [K in RouteParams<P>]: string },
  query?: Record<string, string>,
): string {
  const values = params as Record<string, string>;
  const path = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`route ${pattern} needs :${name}`);
    return encodeURIComponent(value);
  });
  return query ? `${path}?${new URLSearchParams(query).toString()}` : path;
}
