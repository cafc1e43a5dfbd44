/**
 * Saves a downloaded file the way a browser saves a link with `download`: an object URL on an
 * `<a download>` that is clicked and removed. Web only: the native shell's web view does not
 * save files, and shows the PDF in the in-app browser instead (ADR 0054).
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers read the URL after click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * `kvittan-K-2026-000042.pdf`, `rokning-R-000042.pdf`: a document's number after a prefix in the
 * reader's language, with anything unsafe in a file name dropped.
 */
export const pdfFileName = (number: string, prefix: string) =>
  `${prefix}-${number.replace(/[^\w.-]+/g, '_')}.pdf`;
