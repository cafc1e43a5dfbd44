const GROUPS = [2, 2, 4] as const;
const SEPARATOR = /[.,/\-\s]/;

/**
 * Formats a birth date while it is typed, towards the dd.mm.yyyy of SPEC §5: the dots come by
 * themselves ('12051990' → '12.05.1990'), any separator a keyboard offers (',' on a Faroese
 * number pad, '/', '-') becomes a dot, and a one-digit day or month closed by a separator gets
 * its zero ('1.5.' → '01.05.'). Deleting works naturally because only typed separators are kept
 * at the end. Anything else is dropped; validation judges the result.
 */
export function formatDateInput(raw: string): string {
  const groups: string[] = [''];
  let trailingSeparator = false;
  for (const char of raw) {
    const index = groups.length - 1;
    const current = groups[index] ?? '';
    if (/\d/.test(char)) {
      if (current.length === GROUPS[index]) {
        if (index === GROUPS.length - 1) break;
        groups.push(char);
      } else {
        groups[index] = current + char;
      }
      trailingSeparator = false;
    } else if (SEPARATOR.test(char)) {
      // A separator closes a non-empty day or month; a second one in a row is ignored.
      if (current === '' || index === GROUPS.length - 1) continue;
      groups[index] = current.padStart(GROUPS[index] ?? 2, '0');
      groups.push('');
      trailingSeparator = true;
    }
  }
  const text = groups.filter((group) => group !== '').join('.');
  return trailingSeparator ? `${text}.` : text;
}
