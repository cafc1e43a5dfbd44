import { useTranslation } from 'react-i18next';
import type { SupportSubjectType } from '@alda/contract/schemas/support';
import { href, QUERY, ROUTES } from '@/shared/config/paths';
import { ButtonLink } from '@/shared/ui/button';
import { MessageIcon } from '@/shared/ui/icons';

/** An item a customer can write to support about, as the screen showing it knows it. */
export interface SupportItem {
  type: Exclude<SupportSubjectType, 'general'>;
  /** An order's, payment's or receipt's id; a line's 6-digit number for `line` and `roaming_cap`. */
  id: string;
  /** What the item is known by (a number), shown before the server has answered; optional. */
  reference?: string | null;
}

/** The new-conversation screen, about `item` or (without one) in general. */
export function newConversationHref(item?: SupportItem): string {
  if (!item) return ROUTES.supportNew;
  return href(
    ROUTES.supportNew,
    {},
    {
      [QUERY.supportSubject]: item.type,
      [QUERY.supportSubjectId]: item.id,
      ...(item.reference ? { [QUERY.supportReference]: item.reference } : {}),
    },
  );
}

/**
 * "Write to us about this" (issue 46): a small link from the screen where a problem shows (an
 * order, a payment, a receipt, a line, the roaming cap) to a new conversation about that item.
 */
export function WriteToUsLink({ item }: { item: SupportItem }) {
  const { t } = useTranslation();
  return (
    <ButtonLink
      to={newConversationHref(item)}
      variant="ghost"
      size="md"
      className="self-center"
      icon={<MessageIcon className="size-5" />}
    >
      {t('support.writeAbout')}
    </ButtonLink>
  );
}
