import type { ComponentType } from 'react';
import { ROUTES, segment } from '@/shared/config/paths';
import { loadLaterTexts } from '@/shared/i18n/i18n';
import type { AppRoute } from '@/shared/router/app-router';
import { createGuards, type GuardDeps } from './guards';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';
import { SplashFallback } from './splash-fallback';

const handle = (value: RouteHandle) => value;

/**
 * A lazy screen: the export `key` of the module that `load` imports. One short call per route
 * keeps the route table (in the initial JS) small; `load` stays a literal `import()`, so each
 * screen is still its own chunk. Modules with other exports keep `(await import(…)).X`, so the
 * build still drops their unused exports from the chunk.
 */
const screen =
  <M extends Record<K, ComponentType>, K extends keyof M & string>(
    load: () => Promise<M>,
    key: K,
  ): NonNullable<AppRoute['lazy']> =>
  async () => ({ Component: (await load())[key] });

/**
 * The routes of the screens a visitor may see first that show only the first texts
 * (shared/i18n/text-parts.ts): login, home, and the purchase screen that notifications and the
 * home screen's quick action open.
 */
export const FIRST_SCREENS = {
  login: 'login-chooser',
  home: 'home',
  purchase: 'buy-package',
} as const;
const FIRST_SCREEN_IDS: ReadonlySet<string> = new Set(Object.values(FIRST_SCREENS));

/**
 * Every lazy route but the first screens loads the texts of the later screens with its chunk
 * (issue 13: the first screens' download carries only the first texts), and the query cache
 * (issue 45: a guest's first screen does without it; a signed-in session always has it).
 */
function withLaterParts(routes: AppRoute[], loadParts: () => Promise<unknown>): AppRoute[] {
  return routes.map((route): AppRoute => {
    const { lazy, children } = route;
    const out = { ...route };
    if (typeof lazy === 'function' && !FIRST_SCREEN_IDS.has(route.id ?? ''))
      out.lazy = async () => (await Promise.all([lazy(), loadParts()]))[0];
    if (children) out.children = withLaterParts(children, loadParts);
    return out;
  });
}

/**
 * Every route of SPEC §2 that this build has screens for. Routes of later issues are added by
 * those issues (no placeholders). Screens are lazy chunks, so the first download stays small.
 */
export function createAppRoutes(
  deps: GuardDeps,
  loadTexts: () => Promise<void> = () => loadLaterTexts(),
  loadQueries: () => Promise<unknown> = () => Promise.resolve(),
): AppRoute[] {
  const guards = createGuards(deps);
  return withLaterParts(appRoutes(guards), () => Promise.all([loadTexts(), loadQueries()]));
}

function appRoutes(guards: ReturnType<typeof createGuards>): AppRoute[] {
  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RouteError,
      HydrateFallback: SplashFallback,
      children: [
        {
          id: 'guest',
          guard: guards.guestOnly,
          children: [
            {
              path: segment(ROUTES.login),
              children: [
                {
                  id: FIRST_SCREENS.login,
                  index: true,
                  handle: handle({ title: 'auth.chooser.title' }),
                  lazy: screen(
                    () => import('@/features/auth/login-chooser-screen'),
                    'LoginChooserScreen',
                  ),
                },
                {
                  path: segment(ROUTES.loginPhone, ROUTES.login),
                  handle: handle({ title: 'auth.phone.heading' }),
                  lazy: screen(
                    () => import('@/features/auth/phone-login-screen'),
                    'PhoneLoginScreen',
                  ),
                },
                {
                  path: segment(ROUTES.loginPin, ROUTES.login),
                  handle: handle({ title: 'auth.pin.heading' }),
                  lazy: screen(() => import('@/features/auth/pin-screen'), 'PinScreen'),
                },
                {
                  path: segment(ROUTES.loginEmail, ROUTES.login),
                  handle: handle({ title: 'auth.email.heading' }),
                  lazy: screen(
                    () => import('@/features/auth/email-login-screen'),
                    'EmailLoginScreen',
                  ),
                },
              ],
            },
            {
              path: segment(ROUTES.forgotPassword),
              handle: handle({ title: 'auth.forgot.title' }),
              lazy: screen(
                () => import('@/features/auth/forgot-password-screen'),
                'ForgotPasswordScreen',
              ),
            },
            {
              // Opened from the e-mailed link: /nytt-loyniord?token=…
              path: segment(ROUTES.resetPassword),
              handle: handle({ title: 'auth.reset.title' }),
              lazy: screen(
                () => import('@/features/auth/reset-password-screen'),
                'ResetPasswordScreen',
              ),
            },
            {
              path: segment(ROUTES.register),
              handle: handle({ title: 'auth.register.title' }),
              lazy: screen(() => import('@/features/auth/register-screen'), 'RegisterScreen'),
            },
          ],
        },
        {
          id: 'authenticated',
          guard: guards.authRequired,
          children: [
            {
              id: FIRST_SCREENS.home,
              index: true,
              guard: guards.home,
              handle: handle({ footer: true, title: 'home.title' }),
              lazy: screen(() => import('@/features/home/home-screen'), 'HomeScreen'),
            },
            {
              path: segment(ROUTES.welcome),
              guard: guards.welcome,
              handle: handle({ footer: true, title: 'welcome.title' }),
              lazy: screen(() => import('@/features/home/welcome-screen'), 'WelcomeScreen'),
            },
            {
              path: segment(ROUTES.menu),
              handle: handle({ footer: true }),
              children: [
                {
                  index: true,
                  handle: handle({ title: 'menu.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/menu/menu-screen')).MenuScreen,
                  }),
                },
                {
                  path: segment(ROUTES.terms, ROUTES.menu),
                  handle: handle({ title: 'content.terms' }),
                  lazy: async () => ({
                    Component: (await import('@/features/content/content-screen')).TermsScreen,
                  }),
                },
                {
                  path: segment(ROUTES.privacy, ROUTES.menu),
                  handle: handle({ title: 'content.privacy' }),
                  lazy: async () => ({
                    Component: (await import('@/features/content/content-screen')).PrivacyScreen,
                  }),
                },
                {
                  path: segment(ROUTES.orders, ROUTES.menu),
                  handle: handle({ title: 'orders.title' }),
                  lazy: screen(() => import('@/features/orders/orders-screen'), 'OrdersScreen'),
                },
                {
                  // One order and its provisioning steps (SPEC §4 "Subscription processing can take days").
                  path: segment(ROUTES.order, ROUTES.menu),
                  handle: handle({ title: 'provisioning.orderTitle' }),
                  lazy: async () => ({
                    Component: (await import('@/features/orders/order-screen')).OrderScreen,
                  }),
                },
                {
                  path: segment(ROUTES.plans, ROUTES.menu),
                  handle: handle({ title: 'plans.title' }),
                  lazy: screen(() => import('@/features/plans/plans-screen'), 'PlansScreen'),
                },
                {
                  path: segment(ROUTES.plan, ROUTES.menu),
                  handle: handle({ title: 'plans.title' }),
                  lazy: screen(() => import('@/features/plans/plan-screen'), 'PlanScreen'),
                },
                {
                  path: segment(ROUTES.activity, ROUTES.menu),
                  handle: handle({ title: 'activity.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/activity/activity-screen')).ActivityScreen,
                  }),
                },
                {
                  path: segment(ROUTES.receipts, ROUTES.menu),
                  handle: handle({ title: 'receipts.title' }),
                  lazy: screen(
                    () => import('@/features/receipts/receipts-screen'),
                    'ReceiptsScreen',
                  ),
                },
                {
                  path: segment(ROUTES.receipt, ROUTES.menu),
                  handle: handle({ title: 'receipts.title' }),
                  lazy: screen(() => import('@/features/receipts/receipt-screen'), 'ReceiptScreen'),
                },
                {
                  // The monthly bills (ADR 0098): one chunk for the list, a bill and its itemised use.
                  path: segment(ROUTES.bills, ROUTES.menu),
                  handle: handle({ title: 'bills.title' }),
                  lazy: screen(() => import('@/features/bills/bills-screens'), 'BillsScreen'),
                },
                {
                  path: segment(ROUTES.bill, ROUTES.menu),
                  handle: handle({ title: 'bills.title' }),
                  lazy: screen(() => import('@/features/bills/bills-screens'), 'BillScreen'),
                },
                {
                  path: segment(ROUTES.billUsage, ROUTES.menu),
                  handle: handle({ title: 'bills.usage.title' }),
                  lazy: screen(() => import('@/features/bills/bills-screens'), 'BillUsageScreen'),
                },
                {
                  path: segment(ROUTES.monthlyPrice, ROUTES.menu),
                  handle: handle({ title: 'billing.title' }),
                  lazy: screen(
                    () => import('@/features/billing/monthly-price-screen'),
                    'MonthlyPriceScreen',
                  ),
                },
                {
                  // Support conversations (issue 46): the list with the footer; writing without
                  // it, so the keyboard and the composer have the room.
                  path: segment(ROUTES.support, ROUTES.menu),
                  handle: handle({ title: 'support.title' }),
                  lazy: screen(
                    () => import('@/features/support/support-screens'),
                    'SupportListScreen',
                  ),
                },
                {
                  path: segment(ROUTES.supportNew, ROUTES.menu),
                  handle: handle({ footer: false, title: 'support.title' }),
                  lazy: screen(
                    () => import('@/features/support/support-screens'),
                    'SupportNewScreen',
                  ),
                },
                {
                  path: segment(ROUTES.supportThread, ROUTES.menu),
                  handle: handle({ footer: false, title: 'support.thread.title' }),
                  lazy: screen(
                    () => import('@/features/support/support-screens'),
                    'SupportThreadScreen',
                  ),
                },
                {
                  path: segment(ROUTES.language, ROUTES.menu),
                  handle: handle({ title: 'language.title' }),
                  lazy: screen(() => import('@/features/menu/language-screen'), 'LanguageScreen'),
                },
                {
                  path: segment(ROUTES.theme, ROUTES.menu),
                  handle: handle({ title: 'appearance.title' }),
                  lazy: screen(() => import('@/features/menu/theme-screen'), 'ThemeScreen'),
                },
              ],
            },
            {
              path: segment(ROUTES.profile),
              handle: handle({ footer: true, title: 'profile.title' }),
              children: [
                {
                  index: true,
                  lazy: screen(() => import('@/features/profile/profile-screen'), 'ProfileScreen'),
                },
                {
                  // Forms: no footer, so the keyboard and the save button have the room.
                  path: segment(ROUTES.profileEdit, ROUTES.profile),
                  handle: handle({ footer: false, title: 'profile.edit.title' }),
                  lazy: screen(
                    () => import('@/features/profile/profile-edit-screen'),
                    'ProfileEditScreen',
                  ),
                },
                {
                  // SPEC §2 profile.agreement: no footer.
                  path: segment(ROUTES.agreement, ROUTES.profile),
                  handle: handle({ footer: false, title: 'paymentAgreement.title' }),
                  lazy: screen(
                    () => import('@/features/agreement/agreement-screen'),
                    'AgreementScreen',
                  ),
                },
                {
                  path: segment(ROUTES.profilePassword, ROUTES.profile),
                  handle: handle({ footer: false, title: 'profile.password.title' }),
                  lazy: screen(
                    () => import('@/features/profile/change-password-screen'),
                    'ChangePasswordScreen',
                  ),
                },
                {
                  // Issue 14 (ADR 0059): the signed-in devices; the new-device e-mail links here.
                  path: segment(ROUTES.profileDevices, ROUTES.profile),
                  handle: handle({ footer: false, title: 'profile.devices.title' }),
                  lazy: screen(() => import('@/features/profile/devices-screen'), 'DevicesScreen'),
                },
                {
                  // The customer's passkeys (ADR 0097); the new-passkey e-mail links here.
                  path: segment(ROUTES.passkeys, ROUTES.profile),
                  handle: handle({ footer: false, title: 'profile.passkeys.title' }),
                  lazy: screen(
                    () => import('@/features/profile/passkeys-screen'),
                    'PasskeysScreen',
                  ),
                },
              ],
            },
            {
              path: segment(ROUTES.notifications),
              handle: handle({ footer: true, title: 'notifications.title' }),
              lazy: screen(
                () => import('@/features/notifications/notifications-screen'),
                'NotificationsScreen',
              ),
            },
            {
              // A number's data use (ADR 0066): its own user and the account owner; the API decides.
              path: segment(ROUTES.usageHistory),
              handle: handle({ footer: true, title: 'usageHistory.title' }),
              lazy: async () => ({
                Component: (await import('@/features/usage-history/usage-history-screen'))
                  .UsageHistoryScreen,
              }),
            },
            {
              path: segment(ROUTES.giveData),
              handle: handle({ title: 'dataSharing.gift.title' }),
              lazy: async () => ({
                Component: (await import('@/features/data-sharing/data-transfer-screen'))
                  .GiveDataScreen,
              }),
            },
            {
              path: segment(ROUTES.requestData),
              handle: handle({ title: 'dataSharing.request.title' }),
              lazy: async () => ({
                Component: (await import('@/features/data-sharing/data-transfer-screen'))
                  .RequestDataScreen,
              }),
            },
            {
              // SPEC §4 payment flow: the provider's card page returns here; no footer, back goes home.
              path: segment(ROUTES.paymentStatus),
              handle: handle({ title: 'payment.title' }),
              lazy: async () => ({
                Component: (await import('@/features/payments/payment-status-screen'))
                  .PaymentStatusScreen,
              }),
            },
            {
              id: FIRST_SCREENS.purchase,
              path: segment(ROUTES.buyPackage),
              handle: handle({ title: 'packages.title' }),
              lazy: screen(() => import('@/features/packages/packages-screen'), 'PackagesScreen'),
            },
            {
              path: segment(ROUTES.topUp),
              handle: handle({ title: 'topUp.title' }),
              lazy: async () => ({
                Component: (await import('@/features/top-up/top-up-screen')).TopUpScreen,
              }),
            },
            {
              // SPEC §2 new-subscription, no footer (issue 11); an unknown :planType goes home.
              path: segment(ROUTES.newSubscription),
              handle: handle({ title: 'signup.title' }),
              lazy: async () => ({
                Component: (await import('@/features/signup/signup-screen')).NewSubscriptionScreen,
              }),
            },
            {
              // SPEC §2 add-subscription, no footer: individual or family first, then the same steps.
              path: segment(ROUTES.addSubscription),
              handle: handle({ title: 'signup.addTitle' }),
              lazy: async () => ({
                Component: (await import('@/features/signup/signup-screen')).AddSubscriptionScreen,
              }),
            },
            {
              // A number's eSIM (SPEC §1): the owner's numbers and a member's own; the API decides.
              path: segment(ROUTES.esimInstall),
              handle: handle({ title: 'sim.esim.title' }),
              lazy: screen(() => import('@/features/sim/esim-install-screen'), 'EsimInstallScreen'),
            },
            {
              // A replacement SIM or a switch to eSIM: a `sim_change` order (ADR 0055), no footer.
              path: segment(ROUTES.simReplacement),
              handle: handle({ title: 'sim.replace.title' }),
              lazy: screen(
                () => import('@/features/sim/sim-replacement-screen'),
                'SimReplacementScreen',
              ),
            },
            {
              // A number's lock and port-out code (issue 32, ADR 0076): the owner's numbers and a
              // member's own; the API decides. No footer, as the SIM screens.
              path: segment(ROUTES.numberLock),
              handle: handle({ title: 'protection.title' }),
              lazy: screen(
                () => import('@/features/protection/number-lock-screen'),
                'NumberLockScreen',
              ),
            },
            {
              // A number's roaming spend cap (issue 33 §2, ADR 0078): the owner sets it, the
              // number's user sees it; the API decides. No footer, as the number lock.
              path: segment(ROUTES.roamingCap),
              handle: handle({ title: 'roamingCap.title' }),
              lazy: screen(
                () => import('@/features/roaming-cap/roaming-cap-screen'),
                'RoamingCapScreen',
              ),
            },
            {
              // SPEC §2 transfer-to-own-individual / -family: a customer moves their own number
              // (ADR 0056); the screen and the API decide what the caller may move.
              path: segment(ROUTES.transferToIndividual),
              handle: handle({ title: 'transfers.toIndividual.title' }),
              lazy: screen(
                () => import('@/features/transfers/transfer-screens'),
                'TransferToIndividualScreen',
              ),
            },
            {
              path: segment(ROUTES.transferToFamily),
              handle: handle({ title: 'transfers.toFamily.title' }),
              lazy: screen(
                () => import('@/features/transfers/transfer-screens'),
                'TransferToFamilyScreen',
              ),
            },
            {
              // A number offered to the caller (line hand-over, ADR 0056): accept or decline.
              path: segment(ROUTES.handover),
              handle: handle({ title: 'transfers.handover.title' }),
              lazy: screen(() => import('@/features/transfers/handover-screen'), 'HandoverScreen'),
            },
            {
              // Owner-only flows without the footer (SPEC §2 "no footer", §6).
              id: 'owner-flows',
              guard: guards.ownerOnly,
              children: [
                {
                  path: segment(ROUTES.planChange),
                  handle: handle({ title: 'lifecycle.planChange.title' }),
                  lazy: screen(
                    () => import('@/features/lifecycle/plan-change-screen'),
                    'PlanChangeScreen',
                  ),
                },
                {
                  path: segment(ROUTES.addFamilyMember),
                  handle: handle({ title: 'addMember.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/signup/add-member-screen'))
                      .AddFamilyMemberScreen,
                  }),
                },
                {
                  path: segment(ROUTES.transferFamilyMember),
                  handle: handle({ title: 'transfers.member.title' }),
                  lazy: screen(
                    () => import('@/features/transfers/transfer-screens'),
                    'TransferFamilyMemberScreen',
                  ),
                },
                {
                  path: segment(ROUTES.familyToIndividual),
                  handle: handle({ title: 'transfers.familyToIndividual.title' }),
                  lazy: screen(
                    () => import('@/features/transfers/transfer-screens'),
                    'FamilyToIndividualScreen',
                  ),
                },
                {
                  path: segment(ROUTES.individualToFamily),
                  handle: handle({ title: 'transfers.individualToFamily.title' }),
                  lazy: screen(
                    () => import('@/features/transfers/transfer-screens'),
                    'IndividualToFamilyScreen',
                  ),
                },
              ],
            },
            {
              // Owner-only screens (SPEC §2, §6): non-owners are sent home.
              id: 'owner',
              guard: guards.ownerOnly,
              handle: handle({ footer: true }),
              children: [
                {
                  path: segment(ROUTES.familyMember),
                  handle: handle({ title: 'family.title' }),
                  lazy: screen(
                    () => import('@/features/family/family-member-screen'),
                    'FamilyMemberScreen',
                  ),
                },
                {
                  path: segment(ROUTES.familyMemberProcessing),
                  handle: handle({ title: 'family.processing.title' }),
                  lazy: screen(
                    () => import('@/features/family/processing-member-screen'),
                    'ProcessingMemberScreen',
                  ),
                },
                {
                  path: segment(ROUTES.manageSubscription),
                  handle: handle({ title: 'manage.title' }),
                  lazy: screen(
                    () => import('@/features/manage/manage-subscription-screen'),
                    'ManageSubscriptionScreen',
                  ),
                },
                {
                  path: segment(ROUTES.manageFamily),
                  handle: handle({ title: 'manageFamily.title' }),
                  lazy: screen(
                    () => import('@/features/manage/manage-family-screen'),
                    'ManageFamilyScreen',
                  ),
                },
              ],
            },
          ],
        },
        {
          // The unlock e-mail's one-tap cancel (ADR 0076): signed in or not, since whoever asked
          // for the unlock may have taken over the account.
          path: segment(ROUTES.unlockCancel),
          handle: handle({ title: 'protection.cancelPage.title' }),
          lazy: screen(
            () => import('@/features/protection/unlock-cancel-screen'),
            'UnlockCancelScreen',
          ),
        },
        // Unknown paths redirect to home.
        { path: '*', guard: () => ROUTES.home },
      ],
    },
  ];
}
