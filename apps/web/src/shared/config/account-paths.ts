/**
 * Paths of the account screens (SPEC §2), as builders for links. The router's patterns are the
 * `*Pattern` strings; the owner-only four sit at the top level as SPEC §2 lists them. Orders and
 * plans have no path in SPEC §2; they live under the menu.
 */
export const ACCOUNT_PATHS = {
  familyMemberPattern: 'familju-limur/:id',
  familyMemberProcessingPattern: 'familju-limur/vidgerd/:phoneNumber',
  manageSubscriptionPattern: 'umsit-hald/:phoneNumber',
  manageFamilyPattern: 'umsit-familju-hald',
  ordersPattern: 'bilegingar',
  plansPattern: 'hald',
  planPattern: 'hald/:planId',

  familyMember: (id: string) => `/familju-limur/${encodeURIComponent(id)}`,
  familyMemberProcessing: (phoneNumber: string) =>
    `/familju-limur/vidgerd/${encodeURIComponent(phoneNumber)}`,
  manageSubscription: (phoneNumber: string) => `/umsit-hald/${encodeURIComponent(phoneNumber)}`,
  manageFamily: '/umsit-familju-hald',
  orders: '/menu/bilegingar',
  plans: '/menu/hald',
  plan: (planId: string) => `/menu/hald/${encodeURIComponent(planId)}`,
} as const;
