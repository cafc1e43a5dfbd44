import { LINK_PURPOSES, linkSigner } from '../../link-signing';

/**
 * Signed download links of data exports (issue 32, GDPR Art. 15/20): the e-mailed link works
 * without signing in, so the query is the permission — `expires` (unix seconds, the export's
 * `expires_at`) and `sig` over `${id}.${expires}` with the data-export key of LINK_SECRET
 * (link-signing.ts: a key per purpose, compared in constant time). Every instance shares
 * LINK_SECRET, so each accepts the others' links.
 */
export function createExportLinks(secret: string, appUrl: string) {
  const signer = linkSigner(secret, LINK_PURPOSES.dataExport);
  const sign = (id: string, expires: number) => signer.sign(`${id}.${expires}`);
  return {
    /** The absolute download link of an export that is ready until `expiresAt`. */
    url(id: string, expiresAt: Date): string {
      const expires = unixSeconds(expiresAt);
      const query = new URLSearchParams({ expires: String(expires), sig: sign(id, expires) });
      return `${appUrl}/api/data-exports/${encodeURIComponent(id)}/download?${query.toString()}`;
    },
    /** True when `sig` is ours for this id and expiry (the expiry itself is checked by the caller). */
    verify(id: string, expires: number, sig: string): boolean {
      return signer.verify(`${id}.${expires}`, sig);
    },
  };
}

export type ExportLinks = ReturnType<typeof createExportLinks>;

export const unixSeconds = (at: Date) => Math.floor(at.getTime() / 1000);
