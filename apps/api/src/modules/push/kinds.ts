import type { NotificationType } from '@alda/contract/schemas/notifications';
import type { NotificationKind } from '@alda/contract/schemas/push';
import type { NotificationParams } from '../../db/schema/data-transfers';

/**
 * Which kind of push a notification is (ADR 0096), null when it is not pushed: what the
 * customer did themselves a moment ago (a package bought, data given) or can wait for the app.
 * A payment is pushed only when it failed or needs the customer; a package only when it answers
 * the reader's request; a status message only when staff marked it urgent.
 */
export function pushKindOf(
  type: NotificationType,
  params: NotificationParams,
): NotificationKind | null {
  switch (type) {
    case 'usage_alert':
      return 'usage';
    case 'roaming_cap':
      return 'roaming';
    case 'package_request':
    case 'package_request_declined':
    case 'data_request':
    case 'data_paused':
    case 'data_resumed':
      return 'family';
    case 'payment':
      // A new monthly bill (ADR 0098) is pushed as a payment the customer should know of.
      return params.outcome === 'failed' || params.outcome === 'action' || params.outcome === 'bill'
        ? 'payments'
        : null;
    case 'order_completed':
    case 'subscription':
      return 'orders';
    case 'support_answer':
      return 'support';
    case 'sim_changed':
    case 'port_out':
    case 'number_unlock_scheduled':
    case 'number_unlocked':
      return 'security';
    case 'system':
      return params.urgent === true ? 'status' : null;
    case 'package':
      // The member's answer: the owner bought the package they asked for.
      return params.outcome === 'approved' ? 'family' : null;
    case 'data_received':
    case 'data_export_ready':
      return null;
  }
}
