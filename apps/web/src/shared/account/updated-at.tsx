import { useTranslation } from 'react-i18next';
import { formatDate, faroeDateTime, todayInFaroe } from '@alda/contract/format/date';

/** HH:mm on the Faroese clock. */
function faroeTime(instant: string): string {
  const { hour, minute } = faroeDateTime(instant);
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** The ISO day an instant falls on in Atlantic/Faroe. */
const faroeDay = (instant: string) => todayInFaroe(new Date(instant));

/**
 * "Updated today at 14:32" / "Updated 12.05.2025 at 14:32": when the usage feed last moved this
 * number's balance (member.dataUpdatedAt), on the Faroese clock.
 */
export function UpdatedAt({
  instant,
  now = new Date(),
  className,
}: {
  instant: string;
  now?: Date;
  className?: string;
}) {
  const { t } = useTranslation();
  const time = faroeTime(instant);
  const text =
    faroeDay(instant) === todayInFaroe(now)
      ? t('data.updatedToday', { time })
      : t('data.updatedAt', { date: formatDate(instant), time });
  return (
    <time dateTime={instant} className={className}>
      {text}
    </time>
  );
}
