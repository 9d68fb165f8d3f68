import { afterEach, describe, expect, it } from 'vitest';
import {
  readTrackedDownloads,
  TRACKED_DOWNLOADS_KEY,
  writeTrackedDownloads,
  type TrackedDownload,
} from './tracked-downloads';

const entry = (userId: string, downloadId: string): TrackedDownload => ({
  userId,
  teamId: 't1',
  downloadId,
  collectionId: 'c1',
  collectionName: 'Holidays',
});

describe('tracked downloads', () => {
  afterEach(() => sessionStorage.clear());

  it("gives back the signed-in user's entries only", () => {
    writeTrackedDownloads([entry('ada', 'd1'), entry('bob', 'd2'), entry('ada', 'd3')]);
    expect(readTrackedDownloads('ada')).toEqual([entry('ada', 'd1'), entry('ada', 'd3')]);
    expect(readTrackedDownloads(null)).toEqual([]);
  });

  it('reads unreadable storage as nothing to follow', () => {
    for (const raw of [
      'not json',
      '{}',
      '[1]',
      JSON.stringify([{ ...entry('ada', 'd1'), teamId: 4 }]),
    ]) {
      sessionStorage.setItem(TRACKED_DOWNLOADS_KEY, raw);
      expect(readTrackedDownloads('ada'), raw).toEqual([]);
    }
  });

  it('removes the key when nothing is left to follow', () => {
    writeTrackedDownloads([entry('ada', 'd1')]);
    writeTrackedDownloads([]);
    expect(sessionStorage.getItem(TRACKED_DOWNLOADS_KEY)).toBeNull();
  });
});
