import { randomUUID } from 'node:crypto';
import { barringKey, orderCallKey } from '../../src/adapters/network/network';
import {
  activateOrder,
  dataBarringOrder,
  issueSimOrder,
  prepareEsimOrder,
  requestPortOrder,
  roamingBarringOrder,
  type ServiceOrderCreate,
} from '../../src/adapters/network/tmf641/wire';

/*
 * The six kinds of ServiceOrder_Create of the TMF641 design (issue 43,
 * docs/decisions/0082-network-tmf641.md "Wire format"), built by the TMF641 adapter's own
 * builders with keys as the adapter makes them, so the harness test (against the document under
 * Prism) and the demo server's test check the very bodies the adapter sends.
 */

export type Tmf641Kind =
  | 'activate'
  | 'prepareEsim'
  | 'issueSim'
  | 'requestPort'
  | 'setDataBarred'
  | 'setRoamingDataBarred';

/**
 * One ServiceOrder_Create of each kind for `msisdn` (6 digits), for the provisioning order
 * `orderId` (a new one per call unless given: each call is new orders, with new keys).
 */
export function adapterOrders(
  msisdn = '214456',
  options: { orderId?: string; donorIccid?: string; esimMatchingId?: string } = {},
): Record<Tmf641Kind, ServiceOrderCreate> {
  const orderId = options.orderId ?? randomUUID();
  return {
    activate: activateOrder(orderCallKey(orderId, 'activate', 0), {
      msisdn,
      // A physical SIM, or with `esimMatchingId` an eSIM profile.
      iccid: options.esimMatchingId ? null : '8929801123456789012',
      esimMatchingId: options.esimMatchingId ?? null,
    }),
    prepareEsim: prepareEsimOrder(orderCallKey(orderId, 'esim_ready', 0), msisdn),
    issueSim: issueSimOrder(orderCallKey(orderId, 'issueSim', 0), msisdn),
    requestPort: requestPortOrder(
      orderCallKey(orderId, 'port_date_set', 0),
      msisdn,
      options.donorIccid ?? '8929802123456789017',
    ),
    setDataBarred: dataBarringOrder(barringKey(msisdn, 'data', true), msisdn, true),
    setRoamingDataBarred: roamingBarringOrder(barringKey(msisdn, 'roaming', true), msisdn, true),
  };
}
