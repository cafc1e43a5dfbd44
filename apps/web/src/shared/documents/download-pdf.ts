import type { HttpClient, ResponseSchema, Result } from '@/shared/api/http';
import { apiUrl } from '@/shared/config/app-config';
import { openExternalUrl } from '@/shared/native/browser';
import { isNativePlatform } from '@/shared/native/platform';
import { saveFile } from './save-file';

/** Where a document's PDF comes from (a receipt's, a bill's). */
export interface PdfSource {
  /** GET …/pdf with the bearer token, as a Blob (the web). */
  file: () => Promise<Result<Blob>>;
  /** POST …/pdf-link: a short-lived absolute address of the PDF (the native shell). */
  link: () => Promise<Result<string>>;
  /** The saved file's name (the web). */
  fileName: string;
}

/**
 * Downloads a document's PDF: on the web the PDF with the bearer token, saved as a file; in the
 * native shell, whose web view cannot save a file, the in-app browser shows it from a short-lived
 * pre-signed link, and the system's share and save work there (ADR 0054). False when it failed.
 */
export async function downloadPdf(source: PdfSource): Promise<boolean> {
  const result = isNativePlatform() ? await source.link() : await source.file();
  if (!result.ok) return false;
  if (typeof result.data === 'string') await openExternalUrl(result.data);
  else saveFile(result.data, source.fileName);
  return true;
}

/**
 * POST `path` (a document's `…/pdf-link`): the pre-signed address it answers, absolute under the
 * API base, for the native shell's in-app browser, which has no access token (ADR 0054).
 */
export async function pdfLinkUrl(
  http: HttpClient,
  path: string,
  schema: ResponseSchema<{ path: string }>,
): Promise<Result<string>> {
  const result = await http.post(path, undefined, schema);
  return result.ok ? { ok: true, data: apiUrl(result.data.path) } : result;
}
