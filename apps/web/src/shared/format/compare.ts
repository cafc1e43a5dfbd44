/**
 * Orders strings by code unit, for sort(): digits, ISO timestamps, ids. Unlike localeCompare it
 * loads no collation data on its first call (issue 45: ~70 ms of home's first load at a phone's
 * speed); words a customer reads are sorted with the locale instead.
 */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
