import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir.endsWith('/data')).toBe(true);
    expect(c.adminUser).toBe('admin');
    expect(c.adminPassword).toBeUndefined();
    expect(c.sessionIdleMs).toBe(120 * 60_000);
    expect(c.trustProxy).toBe(false);
  });

  it('treats empty optional values as unset', () => {
    const c = loadConfig({ DATABASE_URL: '', MQTT_URL: '', VIGIL_ADMIN_PASSWORD: '', VIGIL_SSO_SECRET: '' });
    expect(c.adminPassword).toBeUndefined();
    expect(c.ssoSecret).toBeUndefined();
    expect(c.databaseUrl).toBeUndefined();
    expect(c.mqttUrl).toBeUndefined();
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', REDIS_URL: 'http://x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'REDIS_URL']) expect(message).toContain(name);
    }
  });

  it('refuses a short SSO secret and admin password', () => {
    expect(() => loadConfig({ VIGIL_SSO_SECRET: 'short' })).toThrow(/VIGIL_SSO_SECRET/);
    expect(() => loadConfig({ VIGIL_ADMIN_PASSWORD: 'abc' })).toThrow(/VIGIL_ADMIN_PASSWORD/);
  });

  it('reads alarm time ranges in TIME_ZONE, the machine’s zone by default, and refuses an unknown zone', () => {
    expect(loadConfig({}).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(loadConfig({ TIME_ZONE: 'Asia/Shanghai' }).timeZone).toBe('Asia/Shanghai');
    expect(() => loadConfig({ TIME_ZONE: 'Mars/Olympus' })).toThrow(/TIME_ZONE: must be an IANA time zone/);
  });

  it('reads the TCP proxies in front of the embedded broker as a list of addresses', () => {
    expect(loadConfig({}).mqttTrustedProxies).toEqual([]);
    expect(loadConfig({ MQTT_TRUSTED_PROXIES: ' 127.0.0.1, ::1,10.0.0.5 ' }).mqttTrustedProxies).toEqual([
      '127.0.0.1',
      '::1',
      '10.0.0.5',
    ]);
    expect(() => loadConfig({ MQTT_TRUSTED_PROXIES: '127.0.0.1,haproxy.local' })).toThrow(/MQTT_TRUSTED_PROXIES/);
  });

  it('runs the domestic edition unless VIGIL_ABROAD is 1', () => {
    expect(loadConfig({}).abroad).toBe(false);
    expect(loadConfig({ VIGIL_ABROAD: '' }).abroad).toBe(false);
    expect(loadConfig({ VIGIL_ABROAD: '0' }).abroad).toBe(false);
    expect(loadConfig({ VIGIL_ABROAD: '1' }).abroad).toBe(true);
    expect(() => loadConfig({ VIGIL_ABROAD: 'yes' })).toThrow(/VIGIL_ABROAD/);
  });
});
