/**
 * Paths of the payment agreement, receipts and monthly price screens. SPEC §2 shows
 * /min-brukari/gjaldsavtala and /menu/kvittanir; the monthly price path is ours (SPEC: not shown).
 */
export const BILLING_PATHS = {
  agreement: '/min-brukari/gjaldsavtala',
  receipts: '/menu/kvittanir',
  receipt: (id: string) => `/menu/kvittanir/${encodeURIComponent(id)}`,
  /** Relative to /menu. */
  receiptPattern: 'kvittanir/:receiptId',
  monthlyPrice: '/menu/manadargjald',
} as const;
