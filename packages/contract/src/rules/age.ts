import { MIN_AGE } from '../constants';
import { todayInFaroe } from '../format/date';
import { parseIsoDate, type IsoDate } from './date';

/**
 * Whole years between a birth date and a calendar day, both ISO `yyyy-mm-dd`. A birthday counts
 * from its own day; someone born on 29 February becomes a year older on 1 March in common years.
 * @throws RangeError when either date is not a real ISO date.
 */
export function ageOn(birthDate: IsoDate, day: IsoDate): number {
  const birth = parseIsoDate(birthDate);
  const on = parseIsoDate(day);
  if (!birth || !on) throw new RangeError(`Not ISO calendar dates: ${birthDate}, ${day}`);
  const beforeBirthday = on.month < birth.month || (on.month === birth.month && on.day < birth.day);
  return on.year - birth.year - (beforeBirthday ? 1 : 0);
}

/**
 * SPEC §5 age check: true when a person born on `birthDate` (ISO `yyyy-mm-dd`) is at least
 * `minAge` years old on the calendar day that `today` falls on in Atlantic/Faroe. The zone matters
 * near midnight: at 23:30 UTC on the eve of an 18th birthday in summer it is already the birthday
 * in Tórshavn. A birth date in the future is never old enough.
 * @throws RangeError when `birthDate` is not a real ISO date.
 */
export function isOldEnough(
  birthDate: IsoDate,
  minAge: number = MIN_AGE,
  today: Date = new Date(),
): boolean {
  return ageOn(birthDate, todayInFaroe(today)) >= minAge;
}
