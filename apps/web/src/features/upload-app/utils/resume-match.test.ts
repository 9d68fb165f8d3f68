import { describe, expect, it } from 'vitest';
import { matchChosenFiles, parseFingerprint } from './resume-match';
import { fingerprintOf, uploadScope, type InterruptedUpload } from './upload-storage';

const SCOPE = uploadScope('user-1', 'c1');
const CHANGED = 1_700_000_000_000;

function file(name: string, size: number, lastModified = CHANGED, type = 'image/jpeg'): File {
  return new File([new Uint8Array(size)], name, { type, lastModified });
}

/** The stored upload an earlier visit left for `original`. */
function interruptedFor(original: File, n = 0): InterruptedUpload {
  const fingerprint = fingerprintOf(SCOPE, original);
  return {
    urlStorageKey: `tus::${fingerprint}::${n}`,
    fingerprint,
    uploadUrl: `http://localhost/api/teams/t1/collections/c1/uploads/u${n}`,
    fileName: original.name,
    size: original.size,
    startedAt: CHANGED,
  };
}

describe('parseFingerprint', () => {
  it('reads back what fingerprintOf wrote, a name holding | included', () => {
    const chosen = file('a|b.jpg', 12, CHANGED, 'image/jpeg');
    expect(parseFingerprint(fingerprintOf(SCOPE, chosen))).toEqual({
      scope: SCOPE,
      size: 12,
      lastModified: CHANGED,
      type: 'image/jpeg',
      name: 'a|b.jpg',
    });
    expect(parseFingerprint('raccolta:u:c|12|x|image/jpeg|a.jpg')).toBeNull();
    expect(parseFingerprint('something else')).toBeNull();
  });
});

describe('matchChosenFiles', () => {
  const concert = file('concert.jpg', 30);
  const solo = file('solo.jpg', 40);
  const interrupted = [interruptedFor(concert, 0), interruptedFor(solo, 1)];

  it('resumes a file equal in name, size and last change, whatever type the browser reports', () => {
    const again = file('concert.jpg', 30, CHANGED, '');
    const result = matchChosenFiles([again], interrupted, true);
    expect(result.resume).toEqual([{ file: again, fingerprint: interrupted[0]?.fingerprint }]);
    expect(result.mismatched).toEqual([]);
    expect(result.fresh).toEqual([]);
  });

  it('sets aside a file with the same name but another size or date, saying how it differs', () => {
    const edited = file('concert.jpg', 31, CHANGED + 60_000);
    const retaken = file('solo.jpg', 40, CHANGED + 1);
    const result = matchChosenFiles([edited, retaken], interrupted, false);
    expect(result.resume).toEqual([]);
    expect(result.fresh).toEqual([]);
    expect(result.mismatched).toEqual([
      { file: edited, upload: interrupted[0], differences: ['size', 'lastModified'] },
      { file: retaken, upload: interrupted[1], differences: ['lastModified'] },
    ]);
  });

  it('uploads unrelated files as new ones when they were not chosen to resume', () => {
    const other = file('rehearsal.jpg', 30);
    const result = matchChosenFiles([concert, other], interrupted, false);
    expect(result.resume.map((match) => match.file)).toEqual([concert]);
    expect(result.fresh).toEqual([other]);
    expect(result.mismatched).toEqual([]);
  });

  it('takes any other file chosen to resume for a wrong pick, never for a new upload', () => {
    const wrong = file('IMG_0001.jpg', 30);
    // Several uploads left: it is none of them.
    const several = matchChosenFiles([wrong], interrupted, true);
    expect(several.mismatched).toEqual([{ file: wrong, upload: null, differences: ['name'] }]);
    expect(several.fresh).toEqual([]);
    // One left (the other matched): it was taken for that one.
    const one = matchChosenFiles([concert, wrong], interrupted, true);
    expect(one.resume.map((match) => match.file)).toEqual([concert]);
    expect(one.mismatched).toEqual([
      { file: wrong, upload: interrupted[1], differences: ['name', 'size'] },
    ]);
    // Nothing left to resume: what else was chosen is new.
    const extra = matchChosenFiles([concert, solo, wrong], interrupted, true);
    expect(extra.resume).toHaveLength(2);
    expect(extra.fresh).toEqual([wrong]);
  });

  it('resumes each upload once: the same file chosen twice is not a second resume', () => {
    const result = matchChosenFiles([concert, file('concert.jpg', 30)], interrupted, false);
    expect(result.resume).toHaveLength(1);
    expect(result.fresh).toEqual([]);
    expect(result.mismatched).toEqual([]);
  });

  it('with nothing interrupted, every file is new', () => {
    expect(matchChosenFiles([concert, solo], [], true)).toEqual({
      resume: [],
      mismatched: [],
      fresh: [concert, solo],
    });
  });
});
