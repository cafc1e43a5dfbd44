import type {
  CreateDataTransferRequest,
  DataTransfer,
} from '@alda/contract/schemas/data-transfers';
import { anyAnswer, type HttpClient, type Result } from '@/shared/api/http';

/** The poll runs from the entry chunk: its schemas (and zod) load with the first request. */
const schemas = () => import('@alda/contract/schemas/data-transfers');

/** The data-transfer calls of SPEC §7. */
export const dataTransfersApi = {
  /** Pending requests addressed to me; `changed: false` when the ETag still matches (304). */
  pending: (http: HttpClient, etag: string | null) =>
    http.getIfChanged(
      '/data-transfers',
      schemas().then((m) => m.dataTransfersResponse),
      etag,
    ),
  create: (
    http: HttpClient,
    body: CreateDataTransferRequest,
    idempotencyKey: string,
  ): Promise<Result<DataTransfer>> =>
    http.post(
      '/data-transfers',
      body,
      schemas().then((m) => m.dataTransfer),
      {
        headers: { 'Idempotency-Key': idempotencyKey },
      },
    ),
  approve: (http: HttpClient, id: string) =>
    http.post(`/data-transfers/${encodeURIComponent(id)}/approve`, undefined, anyAnswer),
  decline: (http: HttpClient, id: string) =>
    http.delete(`/data-transfers/${encodeURIComponent(id)}`, anyAnswer),
};
