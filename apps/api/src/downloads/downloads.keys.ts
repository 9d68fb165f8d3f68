/** Where a part's zip is stored; the same key on every run, so a retry replaces, never adds. */
export function partKey(downloadId: string, partNumber: number): string {
  return `downloads/${downloadId}/part-${partNumber}.zip`;
}

/** The dedupe key of a download's build job: one build at a time per download. */
export function buildJobKey(downloadId: string): string {
  return `downloads.build:${downloadId}`;
}
