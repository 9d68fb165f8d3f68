import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { applyPatch, patchField, type PatchFields } from './json-patch.js';

interface Doc {
  title: string;
  note: string | null;
  locked: boolean;
}

const fields: PatchFields<Doc> = {
  '/title': patchField<Doc, string>({
    get: (d) => d.title,
    set: (d, title) => ({ ...d, title }),
    read: (value) => {
      if (typeof value !== 'string' || value === '') throw new AppError('invalidInput');
      return value;
    },
    allowed: (d) => !d.locked,
  }),
  '/note': patchField<Doc, string | null>({
    get: (d) => d.note,
    set: (d, note) => ({ ...d, note }),
    removed: null,
  }),
  '/locked': patchField<Doc, boolean>({
    get: (d) => d.locked,
    set: (d, locked) => ({ ...d, locked }),
  }),
};

const doc: Doc = { title: 'A', note: 'n', locked: false };

describe('applyPatch', () => {
  it('applies operations in order, each to the state the earlier ones left', () => {
    const out = applyPatch(
      doc,
      [
        { op: 'replace', path: '/title', value: 'B' },
        { op: 'test', path: '/title', value: 'B' },
        { op: 'remove', path: '/note' },
        { op: 'test', path: '/note', value: null },
      ],
      fields,
    );
    expect(out).toEqual({ title: 'B', note: null, locked: false });
    expect(doc).toEqual({ title: 'A', note: 'n', locked: false });
  });

  it('asks the rule on the state as it stands: a lock set earlier in the list refuses', () => {
    expect(() =>
      applyPatch(
        doc,
        [
          { op: 'replace', path: '/locked', value: true },
          { op: 'replace', path: '/title', value: 'C' },
        ],
        fields,
      ),
    ).toThrow(expect.objectContaining({ errorCode: 'forbidden' }));
  });

  it('refuses a failed test, an unknown path, a remove without a cleared value, a bad value', () => {
    const cases: [Parameters<typeof applyPatch<Doc>>[1], string][] = [
      [[{ op: 'test', path: '/title', value: 'Z' }], 'invalidInput'],
      [[{ op: 'replace', path: '/nope', value: 1 }], 'invalidInput'],
      [[{ op: 'replace', path: '/__proto__', value: 1 }], 'invalidInput'],
      [[{ op: 'remove', path: '/title' }], 'invalidInput'],
      [[{ op: 'replace', path: '/title' }], 'invalidInput'],
      [[{ op: 'replace', path: '/title', value: '' }], 'invalidInput'],
    ];
    for (const [ops, errorCode] of cases) {
      expect(() => applyPatch(doc, ops, fields)).toThrow(expect.objectContaining({ errorCode }));
    }
  });
});
