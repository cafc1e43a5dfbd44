import type { ReactNode } from 'react';
import { formatPhoneNumber } from '@alda/contract/format/phone';
import { Avatar } from '@/shared/ui/avatar';

/** A person and their number at the top of a member or manage screen. */
export function MemberHeader({
  firstname,
  lastname,
  phoneNumber,
  badges,
}: {
  firstname: string;
  lastname: string;
  phoneNumber: string | null;
  badges?: ReactNode;
}) {
  return (
    <div className="flex items-center gap-4">
      <Avatar firstname={firstname} lastname={lastname} size="lg" />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 className="text-heading break-words font-bold text-ocean-950">
          {`${firstname} ${lastname}`.trim()}
        </h2>
        {phoneNumber && (
          <p className="text-body text-mist-600 tabular-nums">{formatPhoneNumber(phoneNumber)}</p>
        )}
        {badges && <div className="flex flex-wrap gap-1.5">{badges}</div>}
      </div>
    </div>
  );
}
