import {
  expect,
  test as base,
  type APIRequestContext,
  type BrowserContext,
} from '@playwright/test';
import { DEMO_PASSWORD } from '../../../api/src/seed/demo-users';

/**
 * The journeys' own customers (apps/web/e2e/README.md "Isolation"): each journey that signs in as
 * a demo customer gets a private copy of the whole demo data set — the Joensen family, Guðrun, Rói
 * and Ása with their lines, balances, orders, cards and notifications — made by the demo-only
 * `POST /dev/demo-copy` with fresh e-mails, numbers and ids. What one journey changes, no other
 * journey sees, and a journey run again starts from the demo as it is seeded.
 */
export interface Person {
  firstname: string;
  lastname: string;
  email: string;
  /** 6 digits, as the app shows it without spaces. */
  number: string;
  password: string;
}

export interface DemoCopy {
  /** The family plan owner (Sunneva and Bárður on his plan) with a second, individual line. */
  joannes: Person & { workLine: string };
  /** A family member, not the owner. */
  sunneva: Person;
  /** Individual 20 GB with the EU package, in English; a second number still being set up. */
  gudrun: Person & { secondLine: string };
  /** Prepaid (talutíð) with credit. */
  roi: Person;
  /** A new customer with no line yet: the welcome screen. */
  asa: Person;
  /** Bárður's number, being added to the family plan (no login of his own). */
  bardur: { name: string; number: string };
}

interface CopyAnswer {
  users: Record<
    string,
    { email: string; phoneNumber: string; firstname: string; lastname: string }
  >;
  lines: Record<string, { id: string; msisdn: string }>;
}

/** A fresh copy of the demo data set, through the demo-only seed route. */
export async function demoCopy(request: APIRequestContext): Promise<DemoCopy> {
  const answer = await request.post('/dev/demo-copy');
  expect(answer.status(), await answer.text()).toBe(200);
  const { users, lines } = ((await answer.json()) as { data: CopyAnswer }).data;
  const person = (firstname: string): Person => {
    const user = users[firstname];
    if (!user) throw new Error(`the demo copy has no ${firstname}`);
    return {
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      number: user.phoneNumber,
      password: DEMO_PASSWORD,
    };
  };
  const line = (key: string) => {
    const found = lines[key];
    if (!found) throw new Error(`the demo copy has no line ${key}`);
    return found.msisdn;
  };
  return {
    joannes: { ...person('Jóannes'), workLine: line('joannesWork') },
    sunneva: person('Sunneva'),
    gudrun: { ...person('Guðrun'), secondLine: line('gudrunSecond') },
    roi: person('Rói'),
    asa: person('Ása'),
    bardur: { name: 'Bárður Joensen', number: line('bardur') },
  };
}

/**
 * The clock of the browser, pinned to the journeys' own clock when the suite runs on another day
 * (scripts/e2e-dates.sh sets FAKETIME for the server and the test runner; Chromium does not run
 * under libfaketime, so its pages get Playwright's clock at the same instant, running on).
 */
async function pinClock(context: BrowserContext): Promise<void> {
  if (process.env.FAKETIME) await context.clock.install({ time: Date.now() });
}

/**
 * The journeys' `test`: `people` is a fresh demo copy per journey (made only when a journey asks
 * for it), and every browser context — the default one and those a journey opens itself with
 * `browser.newContext()` — runs on the journeys' clock.
 */
export const test = base.extend<{ people: DemoCopy; serverClock: void }>({
  people: async ({ request }, use) => {
    await use(await demoCopy(request));
  },
  // On another day, the API server must be on it too (its Date header), or the run proves nothing.
  serverClock: [
    async ({ request }, use) => {
      if (process.env.FAKETIME) {
        const served = Date.parse((await request.get('/readyz')).headers()['date'] ?? '');
        expect(Math.abs(served - Date.now()), 'the server runs on the journeys’ day').toBeLessThan(
          60_000,
        );
      }
      await use();
    },
    { auto: true },
  ],
  context: async ({ context }, use) => {
    await pinClock(context);
    await use(context);
  },
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const context = await newContext(...args);
        await pinClock(context);
        return context;
      };
      await use(browser);
    },
    { scope: 'worker' },
  ],
});

export { expect };
