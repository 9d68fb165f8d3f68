/** Query keys of the downloads feature, under the team's id as the API names it. */
export const downloadKeys = {
  all: (teamId: string) => ['downloads', teamId] as const,
  detail: (teamId: string, downloadId: string) =>
    [...downloadKeys.all(teamId), downloadId] as const,
};

/** The API path of a team's downloads, of one download, or of one of its parts. */
export function downloadsPath(teamId: string, downloadId?: string, partId?: number): string {
  const base = `/teams/${encodeURIComponent(teamId)}/downloads`;
  if (downloadId === undefined) return base;
  const download = `${base}/${encodeURIComponent(downloadId)}`;
  return partId === undefined ? download : `${download}/parts/${String(partId)}`;
}

/**
 * The web app's download page (spec §2 route table), the one the ready e-mail links to; `part`
 * starts that part of a download in several parts.
 */
export function downloadPagePath(teamId: string, downloadId: string, part?: number): string {
  const path = `/teams/${encodeURIComponent(teamId)}/downloads/${encodeURIComponent(downloadId)}/download`;
  return part === undefined ? path : `${path}?part=${String(part)}`;
}
