import { describe, expect, it } from 'vitest';
import { toolConnection } from './manifest.js';

describe('toolConnection', () => {
  it('takes the password out of the URL, into PGPASSWORD', () => {
    expect(toolConnection('postgres://raccolta:p%40ss%2Fw@db.internal:5432/raccolta')).toEqual({
      url: 'postgres://raccolta@db.internal:5432/raccolta',
      env: { PGPASSWORD: 'p@ss/w' },
    });
  });

  it('takes a password given as a query parameter too, keeping the other parameters', () => {
    expect(
      toolConnection('postgres://raccolta@db/raccolta?sslmode=require&password=s3cret'),
    ).toEqual({
      url: 'postgres://raccolta@db/raccolta?sslmode=require',
      env: { PGPASSWORD: 's3cret' },
    });
  });

  it('leaves a URL without a password as it is', () => {
    expect(toolConnection('postgres://postgres@127.0.0.1:55432/postgres')).toEqual({
      url: 'postgres://postgres@127.0.0.1:55432/postgres',
      env: {},
    });
  });
});
