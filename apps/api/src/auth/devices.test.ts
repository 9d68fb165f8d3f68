import { describe, expect, it } from 'vitest';
import {
  deviceLabel,
  deviceParts,
  ipHint,
  sessionDevice,
  USER_AGENT_MAX_LENGTH,
} from './devices.js';

const UA = {
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  edgeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
};

describe('deviceLabel', () => {
  it('names the browser and the system, without versions', () => {
    expect(deviceLabel(UA.firefoxAndroid)).toBe('Firefox on Android');
    expect(deviceLabel(UA.chromeWindows)).toBe('Chrome on Windows');
    expect(deviceLabel(UA.safariIphone)).toBe('Safari on iOS');
    expect(deviceLabel(UA.edgeMac)).toBe('Microsoft Edge on macOS');
    expect(deviceLabel(UA.firefoxLinux)).toBe('Firefox on Linux');
  });

  it('gives the parts for texts in other languages', () => {
    expect(deviceParts(UA.safariIphone)).toEqual({ browser: 'Safari', os: 'iOS' });
    expect(deviceParts(null)).toEqual({ browser: null, os: null });
    expect(deviceParts('curl/8.5.0')).toEqual({ browser: null, os: null });
  });

  it('is empty when nothing is recognised', () => {
    expect(deviceLabel('')).toBe('');
    expect(deviceLabel('   ')).toBe('');
  });
});

describe('ipHint', () => {
  it('keeps only the first two octets of IPv4, mapped or not', () => {
    expect(ipHint('203.0.113.77')).toBe('203.0.x.x');
    expect(ipHint('::ffff:198.51.100.4')).toBe('198.51.x.x');
  });

  it('keeps only the /32 of IPv6', () => {
    expect(ipHint('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8::/32');
    expect(ipHint('::1')).toBe('0:0::/32');
    expect(ipHint('fe80:0001::1')).toBe('fe80:1::/32');
  });

  it('gives nothing for what is no address', () => {
    expect(ipHint(undefined)).toBeNull();
    expect(ipHint('')).toBeNull();
    expect(ipHint('localhost')).toBeNull();
  });
});

describe('sessionDevice', () => {
  it('cuts long user agents', () => {
    const device = sessionDevice(`${UA.firefoxLinux} ${'x'.repeat(500)}`, '10.1.2.3');
    expect(device.userAgent).toHaveLength(USER_AGENT_MAX_LENGTH);
    expect(device.label).toBe('Firefox on Linux');
    expect(device.ipHint).toBe('10.1.x.x');
  });
});
