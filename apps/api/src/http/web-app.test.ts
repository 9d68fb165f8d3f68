import { describe, expect, it } from 'vitest';
import { storageOrigins } from './web-app.js';

const s3 = { kind: 's3', bucket: 'raccolta', region: 'eu-south-1', prefix: '' } as const;

describe('storageOrigins', () => {
  it('names where signed links point, so the preview may frame a PDF there', () => {
    expect(storageOrigins({ storage: { kind: 'local', root: '/data/files' } })).toEqual([]);
    expect(storageOrigins({ storage: { ...s3, forcePathStyle: false } })).toEqual([
      'https://raccolta.s3.eu-south-1.amazonaws.com',
    ]);
    expect(
      storageOrigins({
        storage: { ...s3, endpoint: 'http://127.0.0.1:9000/', forcePathStyle: true },
      }),
    ).toEqual(['http://127.0.0.1:9000']);
    expect(
      storageOrigins({
        storage: { ...s3, endpoint: 'https://r2.example.com', forcePathStyle: false },
      }),
    ).toEqual(['https://raccolta.r2.example.com']);
  });
});
