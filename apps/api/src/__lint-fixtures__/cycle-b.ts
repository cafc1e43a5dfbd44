// The other half of the planted cycle (see cycle-a.ts).
import { a } from './cycle-a';

export const b = (n: number): number => (n <= 0 ? 0 : a(n - 1));
