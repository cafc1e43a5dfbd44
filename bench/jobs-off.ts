/**
 * The settings that turn off every job that queries the database on its own timer, so the
 * query counts of the benchmarks are the requests' alone (the usage simulator also needs
 * DEMO_MODE, which is off; the test payment provider's webhook worker is off through
 * `AppDeps.payments`). The LISTEN connection stays: it does not go through the counter.
 */
export const JOBS_OFF = {
  PROVISIONING_POLL_MS: '0',
  MONTH_END_INTERVAL_S: '0',
  PAYMENT_RECONCILE_INTERVAL_S: '0',
  USAGE_SIMULATOR_INTERVAL_S: '0',
} as const;
