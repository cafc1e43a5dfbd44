import { AppError } from '../../errors';
import { OperatorError } from '../operator/service';
import type { PartnerService } from './service';

/*
 * The operator command's `partner` verbs as text (`npm run operator -- partner add|list|disable`,
 * issue 32): the same partners service as the console's admin area, audited alike.
 */

export function createPartnerCommands(partners: PartnerService) {
  return {
    async add(operator: string, name: string, scopes: string[]): Promise<string> {
      const made = await partners
        .create({ name, scopes }, { actor: operator, staffUserId: null })
        .catch((error: unknown) => {
          throw error instanceof AppError
            ? new OperatorError(`${error.code}: ${error.message}`)
            : error;
        });
      return [
        `Partner added: ${made.partner.name} (scopes ${made.partner.scopes.join(' ')})`,
        '',
        'Shown once — hand the secret over securely; it cannot be shown again:',
        `client_id: ${made.partner.clientId}`,
        `client_secret: ${made.clientSecret}`,
        '',
        'Token: POST /oauth/token, grant_type=client_credentials (form or HTTP Basic).',
        '',
      ].join('\n');
    },

    async list(): Promise<string> {
      const items = await partners.list();
      if (items.length === 0)
        return 'No partner clients. Add one: partner add <name> --scope sim-swap\n';
      const width = Math.max(...items.map((p) => p.clientId.length));
      return `${items
        .map(
          (p) =>
            `${p.clientId.padEnd(width)}  ${(p.disabledAt ? `disabled ${p.disabledAt}` : 'active').padEnd(34)}  ${String(p.callCount).padStart(6)} calls  ${p.scopes.join(',')}  ${p.name}`,
        )
        .join('\n')}\n`;
    },

    async disable(operator: string, clientId: string, reason: string | undefined): Promise<string> {
      const partner = await partners
        .disable(clientId, reason ?? 'disabled with npm run operator', {
          actor: operator,
          staffUserId: null,
        })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'NOT_FOUND')
            throw new OperatorError(`No partner client ${clientId}.`);
          if (error instanceof AppError && error.code === 'STAFF_ACTION_NOT_ALLOWED')
            throw new OperatorError(`${clientId} is disabled already.`);
          throw error;
        });
      return `${partner.clientId} (${partner.name}): disabled; its tokens no longer work.\n`;
    },
  };
}

export type PartnerCommands = ReturnType<typeof createPartnerCommands>;
