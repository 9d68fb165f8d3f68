import type { FindingKind } from '../db/database.js';
import type { Finding, VerifyStorageReport } from './verify-storage.js';

const MIB = 1024 * 1024;

const WHAT: Record<FindingKind, { title: string; action: string }> = {
  damaged: {
    title: 'Damaged originals (stored bytes differ from the recorded SHA-256 or size)',
    action: 'restore each from a backup under the same key',
  },
  missing: {
    title: 'Missing originals (no object in storage)',
    action: 'restore each from a backup under the same key',
  },
  rendition: {
    title: 'Renditions missing or unreadable (can be made again from the original)',
    action: 'nothing is lost; the thumbnail and preview can be rendered again',
  },
  orphan: {
    title: 'Orphans (stored objects no row refers to)',
    action: 'check each, then delete it by hand if it is not needed; nothing was deleted',
  },
};

const ORDER: FindingKind[] = ['damaged', 'missing', 'rendition', 'orphan'];

function where(finding: Finding): string {
  if (finding.fileId === null) return '';
  const parts = [`file ${finding.fileId}`];
  if (finding.fileName !== null) parts.push(`"${finding.fileName}"`);
  if (finding.collectionId !== null)
    parts.push(`collection ${finding.collectionId} "${finding.collectionName ?? ''}"`);
  if (finding.teamId !== null) parts.push(`team ${finding.teamId} "${finding.teamName ?? ''}"`);
  return ` (${parts.join(', ')})`;
}

/** What `npm run admin -- verify-storage` prints. */
export function reportText(report: VerifyStorageReport): string {
  const lines: string[] = [];
  lines.push(
    `Storage check ${report.complete ? 'finished' : 'stopped before the end (run it again to go on)'}: ` +
      `${report.filesChecked} file(s), ${(report.bytesRead / MIB).toFixed(1)} MiB read` +
      (report.resumed
        ? ` (a run started ${new Date(report.startedAt).toISOString()}, resumed)`
        : '') +
      (report.complete ? `, ${report.objectsListed} stored object(s) listed.` : '.'),
  );
  const total = report.findings.length;
  if (total === 0) {
    lines.push('Nothing found: every original matches its SHA-256 and size, no orphans.');
    return lines.join('\n');
  }
  lines.push(
    `FOUND ${total} problem(s): ${ORDER.map((kind) => `${report.counts[kind]} ${kind}`).join(', ')}. Nothing was deleted or changed.`,
  );
  for (const kind of ORDER) {
    const ofKind = report.findings.filter((f) => f.kind === kind);
    if (ofKind.length === 0) continue;
    lines.push('', `${WHAT[kind].title}: ${ofKind.length}; ${WHAT[kind].action}.`);
    for (const finding of ofKind)
      lines.push(`  ${kind} ${finding.key}${where(finding)}: ${finding.detail}`);
  }
  return lines.join('\n');
}
