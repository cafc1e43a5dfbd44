import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/*
 * argon2id with OWASP's first recommended parameters (19 MiB, 2 passes, 1 lane). `algorithm: 2`
 * is Argon2id; the package types it as a const enum, which isolated-module builds cannot inline.
 */
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a malformed stored hash (never throws on user input). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * A real hash of a random password, made once. Verifying against it when an e-mail address is
 * unknown makes a failed login take as long as a wrong password, so response times do not tell
 * which addresses have accounts.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomUUID());
  return dummyHash;
}
