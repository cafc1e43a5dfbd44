import { z } from 'zod';
import { toWireNumber } from '@alda/contract/rules/phone';
import type { ServiceOrderState, NetworkCallKind } from '../../../db/schema/network-service-orders';
import { SERVICE_ORDER_STATES } from '../../../db/schema/network-service-orders';
import type { ActivateInput } from '../network';

/*
 * What travels to and from the OSS (TM Forum TMF641 Service Ordering v4.1.0,
 * docs/decisions/0082-network-tmf641.md "Wire format"): one `ServiceOrder_Create` per adapter
 * call with one `serviceOrderItem`, the values as service characteristics, our idempotency key
 * as `externalId`; and the `ServiceOrder` the OSS answers and sends in its events, read
 * leniently (only what we use is checked; everything else an OSS adds is ignored).
 */

/** `ServiceOrder_Create.category` of every order of ours. */
export const ORDER_CATEGORY = 'mobile';

/** The service specification of each call (the OSS's catalogue must know these ids). */
export const SERVICE_SPECIFICATIONS: Record<
  NetworkCallKind,
  { id: string; name: string; action: 'add' | 'modify' }
> = {
  activate: { id: 'alda-mobile-line', name: 'Mobile line', action: 'add' },
  prepareEsim: { id: 'alda-esim-profile', name: 'eSIM profile', action: 'add' },
  issueSim: { id: 'alda-sim-card', name: 'SIM card', action: 'add' },
  requestPort: { id: 'alda-number-port-in', name: 'Number port-in', action: 'add' },
  setDataBarred: { id: 'alda-data-barring', name: 'Data barring', action: 'modify' },
  setRoamingDataBarred: {
    id: 'alda-roaming-data-barring',
    name: 'Roaming data barring',
    action: 'modify',
  },
};

/** A TMF641 `Characteristic` as we send it. */
export interface CharacteristicOut {
  name: string;
  valueType: 'string' | 'boolean';
  value: string | boolean;
}

/** The `ServiceOrder_Create` body we POST (one item). */
export interface ServiceOrderCreate {
  externalId: string;
  description: string;
  category: string;
  serviceOrderItem: [
    {
      id: '1';
      action: 'add' | 'modify' | 'delete';
      service: {
        /**
         * The existing service a `modify` or `delete` acts on: the id the OSS gave it (the
         * line's service from its completed `activate`). Absent on `add`, and while no id is known.
         */
        id?: string;
        serviceSpecification: { id: string; name: string };
        serviceCharacteristic: CharacteristicOut[];
      };
    },
  ];
}

const text = (name: string, value: string): CharacteristicOut => ({
  name,
  valueType: 'string',
  value,
});
const flag = (name: string, value: boolean): CharacteristicOut => ({
  name,
  valueType: 'boolean',
  value,
});

function serviceOrder(
  kind: NetworkCallKind,
  externalId: string,
  description: string,
  characteristics: CharacteristicOut[],
  serviceId?: string | null,
): ServiceOrderCreate {
  const spec = SERVICE_SPECIFICATIONS[kind];
  return {
    externalId,
    description,
    category: ORDER_CATEGORY,
    serviceOrderItem: [
      {
        id: '1',
        action: spec.action,
        service: {
          // An `add` makes the service; anything else names the one the OSS has.
          ...(spec.action !== 'add' && serviceId ? { id: serviceId } : {}),
          serviceSpecification: { id: spec.id, name: spec.name },
          serviceCharacteristic: characteristics,
        },
      },
    ],
  };
}

/*
 * The six bodies. Numbers go international without `+` (298 and six digits); `key` is the
 * call's idempotency key. The harness test of the TMF641 document imports these.
 */

/** `activate`: the number into service on a SIM (ICCID) or an eSIM profile (matching id). */
export function activateOrder(key: string, input: ActivateInput): ServiceOrderCreate {
  const wire = toWireNumber(input.msisdn);
  const sim = input.iccid
    ? text('iccid', input.iccid)
    : text('esimMatchingId', input.esimMatchingId ?? '');
  return serviceOrder('activate', key, `Put ${wire} in service`, [text('msisdn', wire), sim]);
}

/** `prepareEsim`: an eSIM profile on the SM-DP+; answers `smdpAddress` and `matchingId`. */
export function prepareEsimOrder(key: string, msisdn: string): ServiceOrderCreate {
  const wire = toWireNumber(msisdn);
  return serviceOrder('prepareEsim', key, `Prepare an eSIM profile for ${wire}`, [
    text('msisdn', wire),
  ]);
}

/** `issueSim`: a SIM card from stock; answers `iccid`, `pin` and `puk`. */
export function issueSimOrder(key: string, msisdn: string): ServiceOrderCreate {
  const wire = toWireNumber(msisdn);
  return serviceOrder('issueSim', key, `Take a SIM card from stock for ${wire}`, [
    text('msisdn', wire),
  ]);
}

/** `requestPort`: the number ported in, the donor SIM's card number as proof; answers `portDate`. */
export function requestPortOrder(
  key: string,
  msisdn: string,
  donorIccid: string,
): ServiceOrderCreate {
  const wire = toWireNumber(msisdn);
  return serviceOrder('requestPort', key, `Port ${wire} in`, [
    text('msisdn', wire),
    text('donorIccid', donorIccid),
  ]);
}

/**
 * `setDataBarred`: the number's mobile data barred (`true`) or let through (`false`), a `modify`
 * of the line's service, named by `serviceId` once the OSS has given one (its `activate`).
 */
export function dataBarringOrder(
  key: string,
  msisdn: string,
  barred: boolean,
  serviceId?: string | null,
): ServiceOrderCreate {
  const wire = toWireNumber(msisdn);
  return serviceOrder(
    'setDataBarred',
    key,
    `${barred ? 'Bar' : 'Let through'} mobile data of ${wire}`,
    [text('msisdn', wire), flag('dataBarred', barred)],
    serviceId,
  );
}

/** `setRoamingDataBarred`: data abroad barred (`true`) or let through (`false`); as above. */
export function roamingBarringOrder(
  key: string,
  msisdn: string,
  barred: boolean,
  serviceId?: string | null,
): ServiceOrderCreate {
  const wire = toWireNumber(msisdn);
  return serviceOrder(
    'setRoamingDataBarred',
    key,
    `${barred ? 'Bar' : 'Let through'} roaming data of ${wire}`,
    [text('msisdn', wire), flag('roamingDataBarred', barred)],
    serviceId,
  );
}

/* What comes back. */

const characteristicIn = z.looseObject({ name: z.string(), value: z.unknown().optional() });
const errorMessageIn = z.looseObject({
  code: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
});

/**
 * The part of a TMF641 `ServiceOrder` the adapter reads (answers, polls, events). `state` is any
 * text: one outside ServiceOrderStateType (an OSS's own, or `InProgress` cased otherwise) is
 * kept as written and the order taken as existing and still open ({@link knownState}) — never
 * as "no such order", which would place it again.
 */
export const serviceOrderIn = z.looseObject({
  id: z.string().min(1),
  href: z.string().optional(),
  externalId: z.string().optional(),
  state: z.string().optional(),
  errorMessage: z.array(errorMessageIn).optional(),
  serviceOrderItem: z
    .array(
      z.looseObject({
        state: z.string().optional(),
        errorMessage: z.array(errorMessageIn).optional(),
        service: z
          .looseObject({
            id: z.string().optional(),
            serviceCharacteristic: z.array(characteristicIn).optional(),
          })
          .optional(),
      }),
    )
    .optional(),
});
export type ServiceOrderIn = z.infer<typeof serviceOrderIn>;

/** The longest state kept (an OSS's own state is stored as written, up to this). */
export const STATE_MAX = 100;

/**
 * An event's `eventTime` (or the document's `timeOcurred`) as a date: RFC 3339 / ISO 8601 with
 * an offset, which may lack its colon (`+0000`, `+02`) or be `Z`; seconds and fractions are
 * optional. Null when it is not such a date (a day or hour that does not exist included).
 */
function parseEventTime(text: string): Date | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = '00', frac = '', zulu, sign, oh = '00', om = '00'] = m;
  const parts = [y, mo, d, h, mi, sec].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [year, month, day, hour, minute, second] = parts;
  const offsetMin = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (hour > 23 || minute > 59 || second > 59 || Number(oh) > 23 || Number(om) > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day
  )
    return null;
  const ms = frac === '' ? 0 : Math.floor(Number(`0${frac}`) * 1000);
  return new Date(local + ms - offsetMin * 60_000);
}

const eventTimeText = z
  .string()
  .refine((value) => parseEventTime(value) !== null, 'must be a date-time with an offset');

/**
 * A `ServiceOrderStateChangeEvent` or `ServiceOrderAttributeValueChangeEvent` as we take it:
 * the document requires nothing in it, so `eventTime` may be missing (then `timeOcurred`, else
 * the time we received it counts; see {@link eventTimeOf}).
 */
export const serviceOrderEventIn = z.looseObject({
  eventId: z.string().optional(),
  eventTime: eventTimeText.optional(),
  timeOcurred: eventTimeText.optional(),
  eventType: z.string().optional(),
  event: z.looseObject({ serviceOrder: serviceOrderIn }),
});
export type ServiceOrderEventIn = z.infer<typeof serviceOrderEventIn>;

/** The event's time: its `eventTime`, else its `timeOcurred`, else `received` (our clock). */
export function eventTimeOf(event: ServiceOrderEventIn, received: Date): Date {
  for (const text of [event.eventTime, event.timeOcurred])
    if (text !== undefined) {
      const at = parseEventTime(text);
      if (at) return at;
    }
  return received;
}

const KNOWN_STATES: ReadonlySet<string> = new Set(SERVICE_ORDER_STATES);

/**
 * The state as ServiceOrderStateType has it, or null for any other text (`InProgress`,
 * `inprogress`, an OSS's own word): such an order exists and is taken as still open.
 */
export const knownState = (state: string): ServiceOrderState | null =>
  KNOWN_STATES.has(state) ? (state as ServiceOrderState) : null;

/** States after which nothing more happens to an order. */
const TERMINAL: ReadonlySet<string> = new Set<ServiceOrderState>([
  'completed',
  'failed',
  'partial',
  'rejected',
  'cancelled',
]);

/** A terminal state, written exactly as the document has it; any other text is still open. */
export const isTerminal = (state: string): boolean => TERMINAL.has(state);
/** A terminal state other than `completed`: the call did not happen (or only in part). */
export const isFailure = (state: string): boolean => isTerminal(state) && state !== 'completed';

/**
 * How far along a state is, for events with the same `eventTime`: a terminal state beats any
 * other, work in progress beats waiting, and an acknowledgement is first. A state the document
 * does not have ranks with the waiting ones.
 */
export function stateRank(state: string): number {
  if (isTerminal(state)) return 3;
  switch (knownState(state)) {
    case 'acknowledged':
      return 0;
    case 'pending':
    case 'held':
    case null:
      return 1;
    default:
      return 2;
  }
}

/** The id the OSS gave the order's service (`serviceOrderItem[].service.id`; the first one). */
export function serviceIdOf(order: ServiceOrderIn): string | null {
  for (const item of order.serviceOrderItem ?? []) {
    const id = item.service?.id?.trim();
    if (id) return id.slice(0, 200);
  }
  return null;
}

/** The item's returned characteristics by name (all items; a later one wins). */
export function characteristicsOf(order: ServiceOrderIn): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of order.serviceOrderItem ?? []) {
    for (const c of item.service?.serviceCharacteristic ?? []) out[c.name] = c.value;
  }
  return out;
}

/**
 * The OSS's reason for a failure: the order's `errorMessage` first, else its items'. The code is
 * kept apart (PORT_SIMCARD_MISMATCH decides a rejected port); the words join `reason` and
 * `message` as the OSS wrote them.
 */
export function errorOf(order: ServiceOrderIn): { code: string | null; reason: string | null } {
  const messages = [
    ...(order.errorMessage ?? []),
    ...(order.serviceOrderItem ?? []).flatMap((item) => item.errorMessage ?? []),
  ];
  const first = messages.find((m) => m.code || m.reason || m.message);
  if (!first) return { code: null, reason: null };
  const words = [first.reason, first.message].filter((w): w is string => !!w && w.trim() !== '');
  return {
    code: first.code?.trim() || null,
    reason: words.length > 0 ? [...new Set(words)].join(' — ').slice(0, 1000) : null,
  };
}
