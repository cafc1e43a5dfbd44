/*
 * The seeded operator's shape in one place: the generator draws from these numbers, `--help`
 * prints them, and the test checks the counts against them. Shares are probabilities.
 */

export const RATIOS = {
  /** What a household (one account owner and whoever shares their account) is. */
  households: {
    individual: 0.52,
    prepaid: 0.22,
    family: 0.2,
    /** A former customer: cancelled account, number ported out (they keep it elsewhere). */
    churned: 0.05,
    /** Registered, no line or order yet (the welcome screen). */
    welcome: 0.01,
  },
  /** Members of a family account (the owner included). */
  familySize: { 2: 0.3, 3: 0.3, 4: 0.25, 5: 0.1, 6: 0.05 },
  /** A family member 18 or older has a login of their own this often (younger: never). */
  adultMemberLogin: 0.9,
  /** An individual owner also has a second (work) account. */
  secondAccount: 0.05,
  /** A live household also has a cancelled line of the past (its number since given out again). */
  pastLine: 0.15,
  /** Households that ordered in the last three days: account and line still being set up. */
  newHousehold: 0.004,
  /** Family accounts with a member being added (a line in provisioning). */
  memberBeingAdded: 0.01,
  /** Owners new during the history (the rest have been customers for up to ten years). */
  newDuringHistory: 0.15,
  /** Postpaid accounts with the EU roaming package. */
  euPackage: 0.3,
  /** Days of the last week whose raw usage records are kept (older days only as aggregates). */
  recordDays: 7,
  /** Mean voice calls and SMS per line per day in those records (data: one record per day). */
  callsPerDay: 1.2,
  smsPerDay: 0.6,
  /** Postpaid lines whose month's use would pass the plan's data; they buy a package this often. */
  packageWhenOut: 0.45,
  /** A paying customer's monthly charge on the payment agreement: how it ends. */
  monthlyCharge: { paid: 0.975, failed: 0.02, pending: 0.005 },
  /** A failed monthly charge is paid by card in the app within days this often. */
  paidAfterFailure: 0.8,
  /** Top-ups per prepaid line per month. */
  topUpsPerMonth: 0.8,
  /** Family accounts where the owner gives a member data in a month. */
  giftsPerFamilyMonth: 0.15,
  /** Users with signed-in sessions (1–3 devices). */
  sessions: 0.3,
  /** Users with a support conversation. */
  support: 0.02,
  /** Individual accounts with a plan upgrade this month, a downgrade waiting, a cancellation waiting. */
  planUpgrade: 0.03,
  planDowngrade: 0.01,
  pendingCancellation: 0.007,
  /** Physical-SIM lines that changed SIM during the history. */
  simChange: 0.02,
} as const;

/** The ratios as `--help` prints them. */
export function describeRatios(): string {
  const r = RATIOS;
  const pct = (x: number) => `${Math.round(x * 1000) / 10} %`;
  return [
    `Households: individual ${pct(r.households.individual)}, prepaid ${pct(r.households.prepaid)}, family ${pct(r.households.family)} (2–6 members: 2 ${pct(r.familySize[2])}, 3 ${pct(r.familySize[3])}, 4 ${pct(r.familySize[4])}, 5 ${pct(r.familySize[5])}, 6 ${pct(r.familySize[6])}), former customers ${pct(r.households.churned)}, registered without a line ${pct(r.households.welcome)}.`,
    `  Family members 18+ have their own login (${pct(r.adultMemberLogin)}); children are named on the line. ${pct(r.secondAccount)} of individual owners have a second account; ${pct(r.pastLine)} of households a cancelled line of the past. --lines counts every phone line, cancelled ones too (~12 %).`,
    `  ${pct(r.newHousehold)} of households are being set up (orders in provisioning), ${pct(r.memberBeingAdded)} of families are adding a member; ${pct(r.newDuringHistory)} of customers joined during the history.`,
    `Usage (6 Faroese months, the app's history): a usage_daily row per line per day with use (postpaid ~97 % of days, prepaid ~55 %); raw usage_records only for the last ${r.recordDays} days (one data record per day and zone, ~${r.callsPerDay} calls and ~${r.smsPerDay} SMS a day; ~17 per line): all 180 days would be ~500 rows per line, 500 million at a million lines.`,
    `  Balances: one per live line for this month, equal to this month's daily rows; usage alerts at 80/100 %; ${pct(r.packageWhenOut)} of lines that run out buy an extra package. EU package on ${pct(r.euPackage)} of postpaid accounts (trips abroad use it).`,
    `Payments: one monthly charge per paying customer per month on a card agreement (${pct(r.monthlyCharge.paid)} paid, ${pct(r.monthlyCharge.failed)} failed — ${pct(r.paidAfterFailure)} of those then paid by card —, ${pct(r.monthlyCharge.pending)} pending this month), ~${r.topUpsPerMonth} top-ups per prepaid line per month, extra packages: every paid payment has its receipt.`,
    `  Orders in every state: completed, in provisioning (waiting for network, SIM, correction), plan changes and cancellations waiting for the month end, failed and cancelled payments.`,
    `Activity: notifications and activity-log entries for what happened; sessions for ${pct(r.sessions)} of users (1–3 devices); a support conversation for ${pct(r.support)} of users; data gifts in ${pct(r.giftsPerFamilyMonth)} of family-months.`,
  ].join('\n');
}
