import { redirect, type RouteObject } from 'react-router';
import { ACCOUNT_PATHS } from '@/shared/config/account-paths';
import { BILLING_PATHS } from '@/shared/config/billing-paths';
import { SHARING_PATHS } from '@/shared/config/data-sharing-paths';
import { PATHS } from '@/shared/config/paths';
import { PAYMENT_PATHS } from '@/shared/payments/paths';
import { createGuards, type GuardDeps } from './guards';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type { RouteHandle } from './route-handle';
import { SplashFallback } from './splash-fallback';

const handle = (value: RouteHandle) => value;

/**
 * Every route of SPEC §2 that this build has screens for. Routes of later issues are added by
 * those issues (no placeholders). Screens are lazy chunks, so the first download stays small.
 */
export function createAppRoutes(deps: GuardDeps): RouteObject[] {
  const guards = createGuards(deps);
  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RouteError,
      HydrateFallback: SplashFallback,
      children: [
        {
          id: 'guest',
          loader: guards.guestOnly,
          children: [
            {
              path: 'rita-inn',
              children: [
                {
                  index: true,
                  handle: handle({ title: 'auth.chooser.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/auth/login-chooser-screen'))
                      .LoginChooserScreen,
                  }),
                },
                {
                  path: 'vid-telefonnummari',
                  handle: handle({ title: 'auth.phone.heading' }),
                  lazy: async () => ({
                    Component: (await import('@/features/auth/phone-login-screen'))
                      .PhoneLoginScreen,
                  }),
                },
                {
                  path: 'pin',
                  handle: handle({ title: 'auth.pin.heading' }),
                  lazy: async () => ({
                    Component: (await import('@/features/auth/pin-screen')).PinScreen,
                  }),
                },
                {
                  path: 'vid-telduposti',
                  handle: handle({ title: 'auth.email.heading' }),
                  lazy: async () => ({
                    Component: (await import('@/features/auth/email-login-screen'))
                      .EmailLoginScreen,
                  }),
                },
              ],
            },
            {
              path: 'gloymt-loyniord',
              handle: handle({ title: 'auth.forgot.title' }),
              lazy: async () => ({
                Component: (await import('@/features/auth/forgot-password-screen'))
                  .ForgotPasswordScreen,
              }),
            },
            {
              // Opened from the e-mailed link: /nytt-loyniord?token=…
              path: 'nytt-loyniord',
              handle: handle({ title: 'auth.reset.title' }),
              lazy: async () => ({
                Component: (await import('@/features/auth/reset-password-screen'))
                  .ResetPasswordScreen,
              }),
            },
            {
              path: 'stovna-brukara',
              handle: handle({ title: 'auth.register.title' }),
              lazy: async () => ({
                Component: (await import('@/features/auth/register-screen')).RegisterScreen,
              }),
            },
          ],
        },
        {
          id: 'authenticated',
          loader: guards.authRequired,
          children: [
            {
              index: true,
              loader: guards.home,
              handle: handle({ footer: true, title: 'home.title' }),
              lazy: async () => ({
                Component: (await import('@/features/home/home-screen')).HomeScreen,
              }),
            },
            {
              path: 'valkomin',
              loader: guards.welcome,
              handle: handle({ footer: true, title: 'welcome.title' }),
              lazy: async () => ({
                Component: (await import('@/features/home/welcome-screen')).WelcomeScreen,
              }),
            },
            {
              path: 'menu',
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
                  path: 'treytir',
                  handle: handle({ title: 'content.terms' }),
                  lazy: async () => ({
                    Component: (await import('@/features/content/content-screen')).TermsScreen,
                  }),
                },
                {
                  path: 'privatlivspolitikkur',
                  handle: handle({ title: 'content.privacy' }),
                  lazy: async () => ({
                    Component: (await import('@/features/content/content-screen')).PrivacyScreen,
                  }),
                },
                {
                  path: ACCOUNT_PATHS.ordersPattern,
                  handle: handle({ title: 'orders.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/orders/orders-screen')).OrdersScreen,
                  }),
                },
                {
                  path: ACCOUNT_PATHS.plansPattern,
                  handle: handle({ title: 'plans.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/plans/plans-screen')).PlansScreen,
                  }),
                },
                {
                  path: ACCOUNT_PATHS.planPattern,
                  handle: handle({ title: 'plans.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/plans/plan-screen')).PlanScreen,
                  }),
                },
                {
                  path: SHARING_PATHS.activity.slice('/menu/'.length),
                  handle: handle({ title: 'activity.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/activity/activity-screen')).ActivityScreen,
                  }),
                },
                {
                  path: BILLING_PATHS.receipts.slice('/menu/'.length),
                  handle: handle({ title: 'receipts.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/receipts/receipts-screen')).ReceiptsScreen,
                  }),
                },
                {
                  path: BILLING_PATHS.receiptPattern,
                  handle: handle({ title: 'receipts.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/receipts/receipt-screen')).ReceiptScreen,
                  }),
                },
                {
                  path: BILLING_PATHS.monthlyPrice.slice('/menu/'.length),
                  handle: handle({ title: 'billing.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/billing/monthly-price-screen'))
                      .MonthlyPriceScreen,
                  }),
                },
                {
                  path: 'mal',
                  handle: handle({ title: 'language.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/menu/language-screen')).LanguageScreen,
                  }),
                },
              ],
            },
            {
              path: 'min-brukari',
              handle: handle({ footer: true, title: 'profile.title' }),
              children: [
                {
                  index: true,
                  lazy: async () => ({
                    Component: (await import('@/features/profile/profile-screen')).ProfileScreen,
                  }),
                },
                {
                  // Forms: no footer, so the keyboard and the save button have the room.
                  path: 'broyt',
                  handle: handle({ footer: false, title: 'profile.edit.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/profile/profile-edit-screen'))
                      .ProfileEditScreen,
                  }),
                },
                {
                  // SPEC §2 profile.agreement: no footer.
                  path: BILLING_PATHS.agreement.slice('/min-brukari/'.length),
                  handle: handle({ footer: false, title: 'agreement.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/agreement/agreement-screen'))
                      .AgreementScreen,
                  }),
                },
                {
                  path: 'loyniord',
                  handle: handle({ footer: false, title: 'profile.password.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/profile/change-password-screen'))
                      .ChangePasswordScreen,
                  }),
                },
              ],
            },
            {
              path: SHARING_PATHS.notifications.slice(1),
              handle: handle({ footer: true, title: 'notifications.title' }),
              lazy: async () => ({
                Component: (await import('@/features/notifications/notifications-screen'))
                  .NotificationsScreen,
              }),
            },
            {
              path: SHARING_PATHS.giveData.slice(1),
              handle: handle({ title: 'dataSharing.gift.title' }),
              lazy: async () => ({
                Component: (await import('@/features/data-sharing/data-transfer-screen'))
                  .GiveDataScreen,
              }),
            },
            {
              path: SHARING_PATHS.requestData.slice(1),
              handle: handle({ title: 'dataSharing.request.title' }),
              lazy: async () => ({
                Component: (await import('@/features/data-sharing/data-transfer-screen'))
                  .RequestDataScreen,
              }),
            },
            {
              // SPEC §4 payment flow: the provider's card page returns here; no footer, back goes home.
              path: PAYMENT_PATHS.statusPattern,
              handle: handle({ title: 'payment.title' }),
              lazy: async () => ({
                Component: (await import('@/features/payments/payment-status-screen'))
                  .PaymentStatusScreen,
              }),
            },
            {
              path: PAYMENT_PATHS.buyPackage.slice(1),
              handle: handle({ title: 'packages.title' }),
              lazy: async () => ({
                Component: (await import('@/features/packages/packages-screen')).PackagesScreen,
              }),
            },
            {
              path: PAYMENT_PATHS.topUp.slice(1),
              handle: handle({ title: 'topUp.title' }),
              lazy: async () => ({
                Component: (await import('@/features/top-up/top-up-screen')).TopUpScreen,
              }),
            },
            {
              // Owner-only screens (SPEC §2, §6): non-owners are sent home.
              id: 'owner',
              loader: guards.ownerOnly,
              handle: handle({ footer: true }),
              children: [
                {
                  path: ACCOUNT_PATHS.familyMemberPattern,
                  handle: handle({ title: 'family.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/family/family-member-screen'))
                      .FamilyMemberScreen,
                  }),
                },
                {
                  path: ACCOUNT_PATHS.familyMemberProcessingPattern,
                  handle: handle({ title: 'family.processing.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/family/processing-member-screen'))
                      .ProcessingMemberScreen,
                  }),
                },
                {
                  path: ACCOUNT_PATHS.manageSubscriptionPattern,
                  handle: handle({ title: 'manage.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/manage/manage-subscription-screen'))
                      .ManageSubscriptionScreen,
                  }),
                },
                {
                  path: ACCOUNT_PATHS.manageFamilyPattern,
                  handle: handle({ title: 'manageFamily.title' }),
                  lazy: async () => ({
                    Component: (await import('@/features/manage/manage-family-screen'))
                      .ManageFamilyScreen,
                  }),
                },
              ],
            },
          ],
        },
        // Unknown paths redirect to home.
        { path: '*', loader: () => redirect(PATHS.home), element: null },
      ],
    },
  ];
}
