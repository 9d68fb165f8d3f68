import { describe, expect, it } from 'vitest';
import { ACTIVE_EXTENSIONS, offeredFileName } from './offered-name.js';

describe('offeredFileName', () => {
  it('keeps a name whose extension is one of its type, as written', () => {
    expect(offeredFileName('holiday.jpg', 'image/jpeg')).toBe('holiday.jpg');
    expect(offeredFileName('IMG_0001.JPEG', 'image/jpeg')).toBe('IMG_0001.JPEG');
    expect(offeredFileName('scan.pdf', 'application/pdf')).toBe('scan.pdf');
    expect(offeredFileName('page.html', 'text/html')).toBe('page.html');
    expect(offeredFileName('logo.svg', 'image/svg+xml')).toBe('logo.svg');
    expect(offeredFileName('IMG_1.HEIC', 'image/heic')).toBe('IMG_1.HEIC');
    expect(offeredFileName('voice.opus', 'audio/ogg; codecs=opus')).toBe('voice.opus');
  });

  it('gives a polyglot the extension of its sniffed type, keeping the base name', () => {
    expect(offeredFileName('polyglot.html', 'image/jpeg')).toBe('polyglot.jpg');
    expect(offeredFileName('polyglot.htm', 'image/png')).toBe('polyglot.png');
    expect(offeredFileName('drawing.svg', 'image/gif')).toBe('drawing.gif');
    expect(offeredFileName('feed.xml', 'application/pdf')).toBe('feed.pdf');
    expect(offeredFileName('archive.tar.js', 'application/zip')).toBe('archive.tar.zip');
  });

  it('replaces any extension that contradicts a known type, and adds one when missing', () => {
    expect(offeredFileName('photo.png', 'image/jpeg')).toBe('photo.jpg');
    expect(offeredFileName('report.docx', 'application/pdf')).toBe('report.pdf');
    expect(offeredFileName('photo', 'image/jpeg')).toBe('photo.jpg');
    expect(offeredFileName('clip.weird', 'video/mp4')).toBe('clip.mp4');
  });

  it('names an active type by what it is, not by what the name claims', () => {
    expect(offeredFileName('cat.jpg', 'text/html')).toBe('cat.html');
    expect(offeredFileName('icon.png', 'image/svg+xml')).toBe('icon.svg');
    expect(offeredFileName('notes.txt', 'text/html')).toBe('notes.html');
  });

  it('keeps the extension of text, XML, zip and OLE containers unless it is active or another type', () => {
    expect(offeredFileName('data.csv', 'text/plain')).toBe('data.csv');
    expect(offeredFileName('README', 'text/plain')).toBe('README');
    expect(offeredFileName('main.py', 'text/plain')).toBe('main.py');
    expect(offeredFileName('track.gpx', 'application/xml')).toBe('track.gpx');
    expect(offeredFileName('design.sketch', 'application/zip')).toBe('design.sketch');
    expect(offeredFileName('old.xls', 'application/x-cfb')).toBe('old.xls');
    expect(offeredFileName('run.js', 'text/plain')).toBe('run.txt');
    expect(offeredFileName('setup.bat', 'text/plain')).toBe('setup.txt');
    expect(offeredFileName('page.html', 'text/plain')).toBe('page.txt');
    expect(offeredFileName('fake.jpg', 'text/plain')).toBe('fake.txt');
    expect(offeredFileName('page.xhtml', 'application/xml')).toBe('page.xml');
    expect(offeredFileName('app.jar', 'application/zip')).toBe('app.zip');
    expect(offeredFileName('x.docx', 'application/zip')).toBe('x.zip');
  });

  it('offers unknown bytes under their name unless it claims an active or known type, then .bin', () => {
    expect(offeredFileName('model.dat', 'application/octet-stream')).toBe('model.dat');
    expect(offeredFileName('blob', 'application/octet-stream')).toBe('blob');
    expect(offeredFileName('page.html', 'application/octet-stream')).toBe('page.bin');
    expect(offeredFileName('image.svg', 'application/octet-stream')).toBe('image.bin');
    expect(offeredFileName('photo.jpg', 'application/octet-stream')).toBe('photo.bin');
    // A type sniffing knows but no table lists is treated the same way.
    expect(offeredFileName('a.html', 'application/x-nintendo-nes-rom')).toBe('a.bin');
    expect(offeredFileName('game.nes', 'application/x-nintendo-nes-rom')).toBe('game.nes');
  });

  it('reads the type case-insensitively and without parameters', () => {
    expect(offeredFileName('x.html', 'Image/JPEG; q=1')).toBe('x.jpg');
    expect(offeredFileName('x.jpg', 'IMAGE/JPEG')).toBe('x.jpg');
  });

  it('never offers an active extension for bytes of another type', () => {
    const types = [
      'image/jpeg',
      'application/pdf',
      'text/plain',
      'application/zip',
      'application/octet-stream',
    ];
    for (const extension of ACTIVE_EXTENSIONS) {
      for (const type of types) {
        const offered = offeredFileName(`a.${extension}`, type);
        const kept = offered === `a.${extension}`;
        // Only an executable's or an archive's own extension may stay (the bytes are that type).
        expect(kept, `${extension} as ${type}`).toBe(false);
      }
    }
  });

  it('treats a dot that starts a long or spaced tail as part of the name', () => {
    expect(offeredFileName('v1.2 final', 'image/jpeg')).toBe('v1.2 final.jpg');
  });
});
