import { z } from 'zod';
import {
  dataTransfer,
  dataTransfersResponse,
  type CreateDataTransferRequest,
  type DataTransfer,
} from '@alda/contract/schemas/data-transfers';
import type { HttpClient, Result } from '@/shared/api/http';

/** The data-transfer calls of SPEC §7. */
export const dataTransfersApi = {
  /** Pending requests addressed to me; `changed: false` when the ETag still matches (304). */
  pending: (http: HttpClient, etag: string | null) =>
    http.getIfChanged('/data-transfers', dataTransfersResponse, etag),
  create: (
    http: HttpClient,
    body: CreateDataTransferRequest,
    idempotencyKey: string,
  ): Promise<Result<DataTransfer>> =>
    http.post('/data-transfers', body, dataTransfer, {
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  approve: (http: HttpClient, id: string) =>
    http.post(`/data-transfers/${encodeURIComponent(id)}/approve`, undefined, z.unknown()),
  decline: (http: HttpClient, id: string) =>
    http.delete(`/data-transfers/${encodeURIComponent(id)}`, z.unknown()),
};
