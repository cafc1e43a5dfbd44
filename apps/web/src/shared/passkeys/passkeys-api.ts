import { queryOptions } from '@tanstack/react-query';
import {
  passkey,
  passkeyList,
  passkeyRegistrationOptions,
  type Passkey,
  type PasskeyCreateRequest,
  type PasskeyDeleteRequest,
  type PasskeyOptionsRequest,
  type PasskeyRegistrationOptions,
} from '@alda/contract/schemas/passkeys';
import { anyAnswer, unwrap, type HttpClient, type Result } from '@/shared/api/http';

/*
 * The customer's passkeys (ADR 0097): GET /auth/passkeys, the options and the answer that make
 * one, rename and delete. Signing in with one (POST /auth/passkey-login and its options) is with
 * the other sign-ins in features/auth/auth-api.ts.
 */

export const passkeyKeys = {
  all: ['auth', 'passkeys'] as const,
};

export const passkeyQueries = {
  /** GET /auth/passkeys: newest first. Fetched afresh whenever a screen shows them. */
  list: (http: HttpClient) =>
    queryOptions({
      queryKey: passkeyKeys.all,
      queryFn: async ({ signal }) =>
        unwrap(await http.get('/auth/passkeys', passkeyList, { signal })),
      staleTime: 0,
    }),
};

/**
 * POST /auth/passkeys/options: creation options, once the password or SMS code proved who it is
 * (or with `{}` within five minutes of this session's sign-in). 400 VALIDATION_FAILED `REQUIRED`
 * when a proof is needed; 422 PASSWORD_INCORRECT / CONFIRMATION_CODE_INCORRECT.
 */
export function passkeyRegistrationOptionsOf(
  http: HttpClient,
  proof: PasskeyOptionsRequest,
): Promise<Result<PasskeyRegistrationOptions>> {
  return http.post('/auth/passkeys/options', proof, passkeyRegistrationOptions);
}

/** POST /auth/passkeys → 201 with the new passkey; 409 PASSKEY_ALREADY_REGISTERED. */
export function addPasskey(http: HttpClient, body: PasskeyCreateRequest): Promise<Result<Passkey>> {
  return http.post('/auth/passkeys', body, passkey);
}

/** PATCH /auth/passkeys/{id}; 404 PASSKEY_NOT_FOUND. */
export function renamePasskey(
  http: HttpClient,
  id: string,
  name: string,
): Promise<Result<Passkey>> {
  return http.patch(`/auth/passkeys/${encodeURIComponent(id)}`, { name }, passkey);
}

/**
 * POST /auth/passkeys/{id}/delete with the password or SMS code again → 204; 409
 * PASSKEY_LAST_WAY_IN when it is the account's only way in.
 */
export function deletePasskey(
  http: HttpClient,
  id: string,
  proof: PasskeyDeleteRequest,
): Promise<Result<unknown>> {
  return http.post(`/auth/passkeys/${encodeURIComponent(id)}/delete`, proof, anyAnswer);
}
