/**
 * The demo customers, in one place: the seed inserts them and `main.ts` prints their logins when
 * DEMO_MODE is on. Ids are fixed so later seeds (plans, accounts, family members) can refer to
 * them and so re-seeding never duplicates anyone. Names, streets and postal codes are Faroese;
 * the people are invented.
 */
export const DEMO_PASSWORD = 'Demo1234!';

export interface DemoUser {
  id: string;
  firstname: string;
  lastname: string;
  email: string;
  /** 6 digits, without 298. */
  phoneNumber: string;
  /** ISO date. */
  birthDate: string;
  address: string;
  postCode: string;
  city: string;
  locale: 'fo' | 'en';
  /** What this customer demonstrates, printed next to the login. */
  role: string;
  /** False for a customer who has no line with us yet (the welcome screen). Default true. */
  hasLine?: boolean;
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: '6f1d2c3a-0001-4a6e-9b1a-0a1f00000001',
    firstname: 'Jóannes',
    lastname: 'Joensen',
    email: 'joannes@demo.alda.fo',
    phoneNumber: '214455',
    birthDate: '1979-04-12',
    address: 'Áarvegur 12',
    postCode: '100',
    city: 'Tórshavn',
    locale: 'fo',
    role: 'family plan owner: Sunneva, and Bárður being added; also an individual line 214466; EU package',
  },
  {
    id: '6f1d2c3a-0002-4a6e-9b1a-0a1f00000002',
    firstname: 'Sunneva',
    lastname: 'Joensen',
    email: 'sunneva@demo.alda.fo',
    phoneNumber: '214456',
    birthDate: '2006-09-30',
    address: 'Áarvegur 12',
    postCode: '100',
    city: 'Tórshavn',
    locale: 'fo',
    role: 'family member, not the owner: owner-only screens send her home',
  },
  {
    id: '6f1d2c3a-0003-4a6e-9b1a-0a1f00000003',
    firstname: 'Guðrun',
    lastname: 'Poulsen',
    email: 'gudrun@demo.alda.fo',
    phoneNumber: '557812',
    birthDate: '1988-01-23',
    address: 'Biskupsstøðgøta 5',
    postCode: '700',
    city: 'Klaksvík',
    locale: 'en',
    role: 'individual 20 GB with EU package, in English; second number 557813 still being set up (phone login: "still being processed")',
  },
  {
    id: '6f1d2c3a-0004-4a6e-9b1a-0a1f00000004',
    firstname: 'Rói',
    lastname: 'Hansen',
    email: 'roi@demo.alda.fo',
    phoneNumber: '779031',
    birthDate: '1995-06-02',
    address: 'Vágsvegur 41',
    postCode: '900',
    city: 'Vágur',
    locale: 'fo',
    role: 'prepaid talutíð number with credit',
  },
  {
    id: '6f1d2c3a-0005-4a6e-9b1a-0a1f00000005',
    firstname: 'Ása',
    lastname: 'Hansen',
    email: 'ny@demo.alda.fo',
    // Her number is still with another operator: no line with us.
    phoneNumber: '286311',
    birthDate: '1999-11-05',
    address: 'Fjarðavegur 3',
    postCode: '620',
    city: 'Runavík',
    locale: 'fo',
    role: 'new customer, no line or order yet: the welcome screen',
    hasLine: false,
  },
];

/** A demo customer by first name (the seeds and the tests refer to them so). */
export function demoUser(firstname: string): DemoUser {
  const user = DEMO_USERS.find((u) => u.firstname === firstname);
  if (!user) throw new Error(`no demo customer named ${firstname}`);
  return user;
}

/**
 * Ids of the demo lines, named after whose they are: the account seed and the tests refer to a
 * line by these names, never by copying its id.
 */
export const DEMO_LINE_IDS = {
  joannes: '7a2e4b1c-0001-4c3d-8e2f-0b2f00000001',
  joannesWork: '7a2e4b1c-0001-4c3d-8e2f-0b2f00000002',
  sunneva: '7a2e4b1c-0002-4c3d-8e2f-0b2f00000001',
  gudrun: '7a2e4b1c-0003-4c3d-8e2f-0b2f00000001',
  gudrunSecond: '7a2e4b1c-0003-4c3d-8e2f-0b2f00000002',
  roi: '7a2e4b1c-0004-4c3d-8e2f-0b2f00000001',
  /** Bárður's number, being added to the Joensen family plan (no login of his own). */
  bardur: '7a2e4b1c-0006-4c3d-8e2f-0b2f00000001',
} as const;

export interface DemoPhoneLine {
  id: string;
  /** 6 digits. */
  msisdn: string;
  /** Null for a line whose user has no login (a child on the family plan). */
  userId: string | null;
  status: 'active' | 'processing';
}

/**
 * The demo customers' lines: each customer's own number is active (phone login works for it),
 * and Guðrun has ordered a second number, 557813, that the network is still setting up — phone
 * login for it answers PHONE_PROCESSING ('Phone number is still being processed', SPEC §8) and
 * number search reports it as `processing`. Jóannes has a second, individual line; his son
 * Bárður's number (no login of his own) is being added to the family plan. Accounts, plans and
 * SIMs of these lines are in demo-accounts.ts.
 */
export const DEMO_PHONE_LINES: readonly DemoPhoneLine[] = [
  ownLine('Jóannes', DEMO_LINE_IDS.joannes),
  ownLine('Sunneva', DEMO_LINE_IDS.sunneva),
  ownLine('Guðrun', DEMO_LINE_IDS.gudrun),
  ownLine('Rói', DEMO_LINE_IDS.roi),
  {
    id: DEMO_LINE_IDS.gudrunSecond,
    msisdn: '557813',
    userId: demoUser('Guðrun').id,
    status: 'processing',
  },
  {
    id: DEMO_LINE_IDS.joannesWork,
    msisdn: '214466',
    userId: demoUser('Jóannes').id,
    status: 'active',
  },
  { id: DEMO_LINE_IDS.bardur, msisdn: '214457', userId: null, status: 'processing' },
];

/** A customer's own number as an active line (phone login works for it). */
function ownLine(firstname: string, id: string): DemoPhoneLine {
  const user = demoUser(firstname);
  return { id, msisdn: user.phoneNumber, userId: user.id, status: 'active' };
}
