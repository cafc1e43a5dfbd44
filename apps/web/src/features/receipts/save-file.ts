/**
 * Saves a downloaded file the way a browser saves a link with `download`: an object URL on an
 * `<a download>` that is clicked and removed. The native shell has no file or share bridge in
 * `shared/native`, and its web view handles the same download, so both take this path.
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

/** `kvittan-K-2026-000042.pdf`: the receipt number, with anything unsafe in a file name dropped. */
export const receiptFileName = (number: string, prefix: string) =>
  `${prefix}-${number.replace(/[^\w.-]+/g, '_')}.pdf`;
