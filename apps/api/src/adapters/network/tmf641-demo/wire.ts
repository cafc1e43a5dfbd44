import { z } from 'zod';
import type {
  Tmf641DemoItemJson,
  Tmf641DemoOrderJson,
  Tmf641DemoState,
} from '../../../db/schema/tmf641-demo';
import { specificationOf } from './catalogue';

/*
 * The demo TMF641 server's side of the wire (TM Forum TMF641 Service Ordering v4.1.0, the document
 * vendored in apps/api/test/contracts/tmf641): what it accepts in `ServiceOrder_Create` and
 * `EventSubscriptionInput`, and the TMF630 `Error` it answers with otherwise.
 */

export const TMF641_DEMO_PREFIX = '/tmf-api/serviceOrdering/v4';

/** TMF641 OrderItemActionType. */
export const ORDER_ITEM_ACTIONS = ['add', 'modify', 'delete', 'noChange'] as const;

/** The document's `Error` (TMF630): `code` and `reason` required, `status` the HTTP status as text. */
export interface TmfError {
  code: string;
  reason: string;
  message?: string;
  status: string;
  '@type': 'Error';
}

/** A refusal, answered as a TMF `Error` with this HTTP status. */
export class Tmf641DemoError extends Error {
  override name = 'Tmf641DemoError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(`${code}: ${reason}`);
  }

  toBody(): TmfError {
    return {
      code: this.code,
      reason: this.reason,
      ...(this.detail ? { message: this.detail } : {}),
      status: String(this.status),
      '@type': 'Error',
    };
  }
}

const dateTime = z.iso.datetime({ offset: true });
const characteristic = z
  .looseObject({
    name: z.string().min(1).max(100),
    value: z.unknown(),
    valueType: z.string().optional(),
  })
  .refine((c) => 'value' in c && c.value !== undefined, {
    message: 'must have a value',
    path: ['value'],
  });

const item = z.looseObject({
  id: z.string().min(1).max(100),
  action: z.enum(ORDER_ITEM_ACTIONS),
  service: z.looseObject({
    serviceSpecification: z.looseObject({ id: z.string().min(1).max(200) }).optional(),
    serviceCharacteristic: z.array(characteristic).max(50).optional(),
  }),
});

/** The properties of `ServiceOrder_Create` the demo keeps; anything else sent is ignored. */
const serviceOrderCreate = z.looseObject({
  externalId: z.string().min(1).max(200).optional(),
  description: z.string().max(1000).optional(),
  category: z.string().max(200).optional(),
  priority: z.string().max(100).optional(),
  notificationContact: z.string().max(500).optional(),
  requestedStartDate: dateTime.optional(),
  requestedCompletionDate: dateTime.optional(),
  serviceOrderItem: z.array(item).min(1).max(20),
});
export type ServiceOrderCreateIn = z.infer<typeof serviceOrderCreate>;

const eventSubscriptionInput = z.looseObject({
  callback: z.url({ protocol: /^https?$/ }).max(2000),
  query: z.string().max(1000).optional(),
});

/** Whether `body` has something at `path` (zod's issues do not carry the input). */
function present(body: unknown, path: readonly PropertyKey[]): boolean {
  let at: unknown = body;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return false;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at !== undefined;
}

/** "serviceOrderItem.0.action is required", for the first problem zod found in `body`. */
function firstProblem(error: z.ZodError, body: unknown): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.map(String).join('.');
  const what = !present(body, issue.path)
    ? 'is required'
    : issue.code === 'too_small' && issue.origin === 'array'
      ? 'needs at least one item'
      : issue.code === 'invalid_value'
        ? `must be one of ${issue.values.map(String).join(', ')}`
        : issue.message;
  return where ? `${where} ${what}` : `body ${what}`;
}

/**
 * The essentials of a `ServiceOrder_Create` (400 INVALID_SERVICE_ORDER otherwise), then what the
 * demo's catalogue needs: a known `serviceSpecification.id` (400 UNKNOWN_SERVICE_SPECIFICATION),
 * an action that makes something so (`add`, `modify`; 400 UNSUPPORTED_ACTION) and the
 * specification's characteristics (400 INVALID_CHARACTERISTIC).
 */
export function parseServiceOrderCreate(body: unknown): ServiceOrderCreateIn {
  const parsed = serviceOrderCreate.safeParse(body);
  if (!parsed.success) {
    throw new Tmf641DemoError(400, 'INVALID_SERVICE_ORDER', firstProblem(parsed.error, body));
  }
  const order = parsed.data;
  const ids = new Set<string>();
  order.serviceOrderItem.forEach((entry, index) => {
    const where = `serviceOrderItem.${index}`;
    if (ids.has(entry.id)) {
      throw new Tmf641DemoError(
        400,
        'INVALID_SERVICE_ORDER',
        `${where}.id ${entry.id} is not unique`,
      );
    }
    ids.add(entry.id);
    const specId = entry.service.serviceSpecification?.id;
    const spec = specId === undefined ? undefined : specificationOf(specId);
    if (!spec) {
      throw new Tmf641DemoError(
        400,
        'UNKNOWN_SERVICE_SPECIFICATION',
        `${where}.service.serviceSpecification.id ${specId === undefined ? 'is required' : `${specId} is not in the catalogue`}`,
      );
    }
    if (entry.action !== 'add' && entry.action !== 'modify') {
      throw new Tmf641DemoError(
        400,
        'UNSUPPORTED_ACTION',
        `${where}.action ${entry.action} is not supported for ${spec.id} (add or modify)`,
      );
    }
    const problem = spec.check(valuesOf(entry.service.serviceCharacteristic));
    if (problem) {
      throw new Tmf641DemoError(400, 'INVALID_CHARACTERISTIC', `${where}: ${problem}`);
    }
  });
  return order;
}

export function parseEventSubscriptionInput(body: unknown): { callback: string; query: string } {
  const parsed = eventSubscriptionInput.safeParse(body);
  if (!parsed.success) {
    throw new Tmf641DemoError(400, 'INVALID_EVENT_SUBSCRIPTION', firstProblem(parsed.error, body));
  }
  return { callback: parsed.data.callback, query: parsed.data.query ?? '' };
}

/** The characteristics by name (a later one of the same name wins). */
export function valuesOf(
  characteristics: readonly { name: string; value?: unknown }[] | undefined,
): Map<string, unknown> {
  return new Map((characteristics ?? []).map((c) => [c.name, c.value]));
}

/** What identifies an order's content, for a repeated `externalId`: its items as sent. */
export function itemsFingerprint(items: readonly unknown[]): string {
  return canonical(
    items.map((entry) => {
      const { state: _state, errorMessage: _errors, ...rest } = entry as Record<string, unknown>;
      const service = { ...(rest.service as Record<string, unknown>) };
      delete service.state;
      return { ...rest, service };
    }),
  );
}

/** JSON with the keys of every object sorted. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The new order as `POST /serviceOrder` answers it: acknowledged, items acknowledged. */
export function newOrderJson(
  input: ServiceOrderCreateIn,
  id: string,
  href: string,
  at: Date,
  expectedCompletion: Date,
): Tmf641DemoOrderJson {
  const kept: Record<string, unknown> = {};
  for (const key of [
    'externalId',
    'description',
    'category',
    'priority',
    'notificationContact',
    'requestedStartDate',
    'requestedCompletionDate',
  ] as const) {
    if (input[key] !== undefined) kept[key] = input[key];
  }
  const items: Tmf641DemoItemJson[] = input.serviceOrderItem.map((entry) => ({
    id: entry.id,
    action: entry.action,
    state: 'acknowledged',
    service: entry.service as Tmf641DemoItemJson['service'],
  }));
  return {
    id,
    href,
    ...kept,
    orderDate: at.toISOString(),
    expectedCompletionDate: expectedCompletion.toISOString(),
    state: 'acknowledged',
    serviceOrderItem: items,
    '@type': 'ServiceOrder',
  };
}

/** The order in `state`, every item with it. */
export function withState(order: Tmf641DemoOrderJson, state: Tmf641DemoState): Tmf641DemoOrderJson {
  return {
    ...order,
    state,
    serviceOrderItem: order.serviceOrderItem.map((entry) => ({ ...entry, state })),
  };
}
