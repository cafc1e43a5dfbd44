import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTmf641Prism, type Tmf641Prism } from './support/tmf641-prism';
import { adapterOrders } from './support/tmf641-orders';

/*
 * The TMF641 OSS of the tests (test/support/tmf641-prism.ts): Prism serving TM Forum's TMF641
 * Service Ordering v4.1.0 document (test/contracts/tmf641/README.md). These tests prove the
 * harness (issue 43 §5): what the document allows passes with no violation, and what TMF would
 * refuse is recorded as a violation — so a contract test that ends with no violations means
 * something.
 */

let prism: Tmf641Prism;

beforeAll(async () => {
  prism = await startTmf641Prism();
});

afterAll(async () => {
  await prism?.close();
});

beforeEach(() => prism.reset());

const auth = { Authorization: 'Bearer tmf641-test-token' };

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = auth,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(prism.url + path, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

const valid = adapterOrders().activate;

describe('issue 43 §5: the TMF641 Prism harness', () => {
  it('serves the document under /tmf-api/serviceOrdering/v4 and takes a valid ServiceOrder_Create with no violation', async () => {
    expect(prism.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tmf-api\/serviceOrdering\/v4$/);
    const res = await send('POST', '/serviceOrder', valid);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.any(String), state: 'acknowledged' });
    expect(prism.violations).toEqual([]);
    expect(prism.requests).toEqual([
      expect.objectContaining({
        api: 'tmf641',
        method: 'POST',
        path: '/tmf-api/serviceOrdering/v4/serviceOrder',
        body: valid,
        status: 201,
      }),
    ]);
    expect(prism.requests[0]?.headers.authorization).toBe('Bearer tmf641-test-token');
  });

  it('passes the bodies the TMF641 adapter builds for its six calls (line, eSIM, SIM, port-in, data and roaming barring)', async () => {
    const bodies = {
      ...adapterOrders(),
      activateOnEsim: adapterOrders('214457', { esimMatchingId: 'A1B2-C3D4-E5F6-G7H8' }).activate,
    };
    for (const [kind, body] of Object.entries(bodies)) {
      const res = await send('POST', '/serviceOrder', body);
      expect(res.status, kind).toBe(201);
    }
    expect(prism.violations).toEqual([]);
    expect(prism.requests).toHaveLength(7);
  });

  it('passes the reads and the listener registration the adapter makes', async () => {
    expect((await send('GET', '/serviceOrder/so-123')).status).toBe(200);
    const byKey = await send(
      'GET',
      `/serviceOrder?externalId=${encodeURIComponent(valid.externalId!)}`,
    );
    expect(byKey.status).toBe(200);
    expect(Array.isArray(byKey.body)).toBe(true);
    const hub = await send('POST', '/hub', {
      callback: 'https://selfcare.alda.test/tmf-api/listener/serviceOrdering/v4',
      query: 'eventType=ServiceOrderStateChangeEvent,ServiceOrderAttributeValueChangeEvent',
    });
    expect(hub).toMatchObject({
      status: 201,
      body: { id: expect.any(String), callback: expect.any(String) },
    });
    expect((await send('DELETE', '/hub/hub-1')).status).toBe(204);
    expect(prism.violations).toEqual([]);
    expect(prism.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/tmf-api/serviceOrdering/v4/serviceOrder/so-123', {}],
      ['GET', '/tmf-api/serviceOrdering/v4/serviceOrder', { externalId: valid.externalId }],
      ['POST', '/tmf-api/serviceOrdering/v4/hub', {}],
      ['DELETE', '/tmf-api/serviceOrdering/v4/hub/hub-1', {}],
    ]);
  });

  it('records an order without serviceOrderItem, and one with none in it, as violations', async () => {
    const { serviceOrderItem: _items, ...withoutItems } = valid;
    expect((await send('POST', '/serviceOrder', withoutItems)).status).toBe(400);
    expect((await send('POST', '/serviceOrder', { ...valid, serviceOrderItem: [] })).status).toBe(
      400,
    );
    expect(prism.violations.map((v) => [v.location.join('.'), v.code])).toEqual([
      ['request.body', 'required'],
      ['request.body.serviceOrderItem', 'minItems'],
    ]);
    expect(prism.violations[0]?.message).toContain('serviceOrderItem');
  });

  it('records an item without action, without id, or with an action TMF does not have, as violations', async () => {
    const item = valid.serviceOrderItem[0]!;
    const { action: _action, ...noAction } = item;
    const { id: _id, ...noId } = item;
    await send('POST', '/serviceOrder', { ...valid, serviceOrderItem: [noAction] });
    await send('POST', '/serviceOrder', { ...valid, serviceOrderItem: [noId] });
    await send('POST', '/serviceOrder', {
      ...valid,
      serviceOrderItem: [{ ...item, action: 'activate' }],
    });
    expect(
      prism.violations.map((v) => [v.status, v.location.join('.'), v.code, v.message]),
    ).toEqual([
      [
        400,
        'request.body.serviceOrderItem.0',
        'required',
        "Request body property serviceOrderItem.0 must have required property 'action'",
      ],
      [
        400,
        'request.body.serviceOrderItem.0',
        'required',
        "Request body property serviceOrderItem.0 must have required property 'id'",
      ],
      [
        400,
        'request.body.serviceOrderItem.0.action',
        'enum',
        expect.stringContaining('add, modify, delete, noChange'),
      ],
    ]);
  });

  it('records an item without service and a characteristic without value as violations', async () => {
    const item = valid.serviceOrderItem[0]!;
    const { service: _service, ...noService } = item;
    await send('POST', '/serviceOrder', { ...valid, serviceOrderItem: [noService] });
    await send('POST', '/serviceOrder', {
      ...valid,
      serviceOrderItem: [
        {
          ...item,
          service: { ...item.service, serviceCharacteristic: [{ name: 'msisdn' }] },
        },
      ],
    });
    expect(prism.violations.map((v) => [v.location.join('.'), v.code])).toEqual([
      ['request.body.serviceOrderItem.0', 'required'],
      ['request.body.serviceOrderItem.0.service.serviceCharacteristic.0', 'required'],
    ]);
  });

  it('records a POST /hub without callback as a violation', async () => {
    const res = await send('POST', '/hub', { query: 'eventType=ServiceOrderStateChangeEvent' });
    expect(res.status).toBe(400);
    expect(prism.violations).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/tmf-api/serviceOrdering/v4/hub',
        source: 'sl-violations',
        location: ['request', 'body'],
        code: 'required',
        message: "Request body must have required property 'callback'",
      }),
    ]);
  });

  it('records a body that is not JSON, a path the document lacks and a path outside the base path as violations', async () => {
    await send('POST', '/serviceOrder', JSON.stringify(valid), {
      ...auth,
      'Content-Type': 'text/plain',
    });
    await send('POST', '/productOrder', valid);
    const outside = await fetch(`${prism.origin}/tmf-api/serviceOrdering/v5/serviceOrder`);
    await outside.arrayBuffer();
    expect(prism.violations.map((v) => [v.source, v.code])).toEqual([
      ['sl-violations', '415'],
      ['prism-error', 'NO_PATH_MATCHED_ERROR'],
      ['harness', 'NO_ROUTE'],
    ]);
  });

  it('keeps the document’s own example answers apart from the request’s violations', async () => {
    await send('POST', '/serviceOrder', valid);
    expect(prism.violations).toEqual([]);
    // The generated example of ServiceOrder breaks its own schema (README "Known faults").
    expect(prism.responseViolations.length).toBeGreaterThan(0);
    expect(prism.responseViolations.every((v) => v.location[0] === 'response')).toBe(true);
  });

  it('lets a test choose a documented error answer with prefer()', async () => {
    prism.prefer({ method: 'GET', path: /\/serviceOrder\/[^/]+$/, prefer: 'code=404' });
    const res = await send('GET', '/serviceOrder/unknown');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: expect.any(String), reason: expect.any(String) });
    expect(prism.violations).toEqual([]);
  });
});
