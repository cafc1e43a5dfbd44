/**
 * Every job that production runs on its own timer, by the setting that turns it off (`0`), with
 * its default interval (apps/api/src/config.ts). `TEST_PROVIDER_WORKER` is no setting: the test
 * payment provider's webhook worker (PAYMENT_PROVIDER=test, the default) runs every second unless
 * `AppDeps.payments.testProviderIntervalMs` is 0. The usage simulator needs DEMO_MODE, which
 * production does not run; the LISTEN connection is no job.
 */
export const JOBS = [
  { setting: 'PROVISIONING_POLL_MS', name: 'provisioning worker', every: '5 s' },
  { setting: 'DATA_EXPORT_POLL_MS', name: 'data-export worker', every: '5 s' },
  { setting: 'TEST_PROVIDER_WORKER', name: "test provider's webhook worker", every: '1 s' },
  { setting: 'SUPPORT_POLL_MS', name: 'support job', every: '30 s' },
  { setting: 'NUMBER_UNLOCK_INTERVAL_S', name: 'number unlocks', every: '60 s' },
  { setting: 'PAYMENT_RECONCILE_INTERVAL_S', name: 'payment reconciliation', every: '60 s' },
  { setting: 'MONTH_END_INTERVAL_S', name: 'month end and charges', every: '300 s' },
] as const;
export type JobSetting = (typeof JOBS)[number]['setting'];

/**
 * The settings that turn off every job that queries the database on its own timer, so the
 * query counts of the benchmarks are the requests' alone (the usage simulator also needs
 * DEMO_MODE, which is off; the test payment provider's webhook worker is off through
 * `AppDeps.payments`). The LISTEN connection stays: it does not go through the counter.
 */
export const JOBS_OFF = {
  PROVISIONING_POLL_MS: '0',
  DATA_EXPORT_POLL_MS: '0',
  SUPPORT_POLL_MS: '0',
  NUMBER_UNLOCK_INTERVAL_S: '0',
  MONTH_END_INTERVAL_S: '0',
  PAYMENT_RECONCILE_INTERVAL_S: '0',
  USAGE_SIMULATOR_INTERVAL_S: '0',
} as const;
