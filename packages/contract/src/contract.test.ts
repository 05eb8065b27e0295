import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { calls } from './catalogue.ts';
import { CONSOLE_ROUTES, landingPathFor, menuListFor } from './console-routes.ts';
import { CONSTANTS, WEAK_PASSWORDS } from './constants.ts';
import { DEVICE_TYPES, deviceTypeByCode } from './device-types.ts';
import { enUS } from './messages/en-US.ts';
import { LANGUAGES, messageCatalogue, pickLanguage, translate } from './messages/index.ts';
import { ROLES } from './roles.ts';
import { describeIssue } from './validation.ts';
import { FRAME_TOUCHES, SocketServerFrameSchema } from './socket.ts';

describe('call catalogue', () => {
  it('declares each method + path once', () => {
    const keys = Object.values(calls).map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps the spec paths of the foundation calls', () => {
    const paths = Object.values(calls).map((c) => c.path);
    for (const p of [
      '/admin/login',
      '/admin/sso',
      '/admin/logout',
      '/admin/updatePassword',
      '/provider/queryProviderList',
      '/provider/insertProvider',
      '/provider/restProviderPwd',
      '/provider/operateProvider',
      '/provider/getProvider',
      '/provider/deleteProvider',
      '/account/queryAccountList',
      '/account/insertAccount',
      '/account/operate',
      '/account/changeProvider',
      '/system/platformName/get',
      '/system/platformName/post',
      '/system/upload',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('every request and result schema converts to JSON schema', () => {
    for (const [name, call] of Object.entries(calls)) {
      expect(() => z.toJSONSchema(call.request, { io: 'input', unrepresentable: 'any' }), name).not.toThrow();
      expect(() => z.toJSONSchema(call.result, { io: 'output', unrepresentable: 'any' }), name).not.toThrow();
    }
  });
});

describe('catalogues of the spec', () => {
  it('has all 18 device types with unique codes', () => {
    expect(DEVICE_TYPES).toHaveLength(18);
    expect(new Set(DEVICE_TYPES.map((d) => d.code)).size).toBe(18);
    expect(deviceTypeByCode(21011)?.model).toBe('ED719N');
    expect(deviceTypeByCode(49)?.kind).toBe('sleep_monitor');
  });

  it('has the eleven roles', () => {
    expect(ROLES).toHaveLength(11);
  });

  it('has 15 weak passwords that would otherwise pass the composition rules', () => {
    expect(WEAK_PASSWORDS).toHaveLength(15);
    for (const p of WEAK_PASSWORDS) {
      expect(p.length).toBeGreaterThanOrEqual(CONSTANTS.passwordMinLength);
      expect(p.length).toBeLessThanOrEqual(CONSTANTS.passwordMaxLength);
      expect(p).toMatch(/\d/);
      expect(p).toMatch(/[a-z]/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[^A-Za-z0-9]/);
    }
  });

  it('computes landing pages per role', () => {
    expect(landingPathFor('SENIOR_ROLE', false)).toBe('/deviceManage/deviceManage');
    expect(landingPathFor('SUPER_ROLE', false)).toBe('/permission/providermanager');
    expect(landingPathFor('ONE_ROLE', false)).toBe('/permission/providermanager');
    expect(landingPathFor('ONE_ROLE', true)).toBe('/realMonitor/index');
    expect(landingPathFor('TWO_ROLE', false)).toBe('/realMonitor/index');
    // Its statistics dashboard is a planned screen: nowhere to land until it is built.
    expect(landingPathFor('GOVERNMENT', false)).toBe('/noPermission');
    expect(landingPathFor('BUSINESS_ROLE', false)).toBe('/permission/accountmanager');
    expect(landingPathFor('SOCIAL_WORKER', false)).toBe('/realMonitor/index');
  });

  it('gives each role the menus of the route table', () => {
    expect(menuListFor('GOVERNMENT', [])).toEqual([]);
    expect(menuListFor('SENIOR_ROLE', [])).toContain('hardSoftUpload');
    expect(menuListFor('ONE_ROLE', [])).not.toContain('hardSoftUpload');
    expect(menuListFor('BUSINESS_ROLE', [])).toEqual(['accountmanager', 'providermanager']);
    expect(menuListFor('MAINTAIN', [])).toEqual([]);
    const names = CONSOLE_ROUTES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('lists no planned screen, and keeps its rules in the table to switch it on', () => {
    const planned = CONSOLE_ROUTES.filter((r) => r.planned).map((r) => r.name);
    expect(planned).toEqual(['statistics', 'statisticsMult']);
    for (const role of ['ONE_ROLE', 'TWO_ROLE', 'GOVERNMENT'] as const) {
      expect(
        menuListFor(role, []).filter((name) => planned.includes(name)),
        role,
      ).toEqual([]);
    }
  });

  it('lists a device screen only for a session working with devices of its groups', () => {
    const deviceScreens = ['ed719', 'safeDeviceManage', 'hostDevice'];
    const shown = (groups: Parameters<typeof menuListFor>[1]) =>
      menuListFor('TWO_ROLE', groups).filter((name) => deviceScreens.includes(name));
    expect(shown([])).toEqual([]);
    expect(shown(['sleep'])).toEqual([]);
    expect(shown(['fall'])).toEqual(['ed719']);
    expect(shown(['wearable'])).toEqual(['safeDeviceManage']);
    expect(shown(['security', 'gateway'])).toEqual(['safeDeviceManage', 'hostDevice']);
    // The sleep monitors' screen is every device role's, with or without devices.
    expect(menuListFor('TWO_ROLE', [])).toContain('deviceManage');
  });
});

describe('messages', () => {
  it('every language has every key, none empty, with the same {placeholders}', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(LANGUAGES).toHaveLength(8);
    for (const lang of LANGUAGES) {
      const catalogue = messageCatalogue(lang);
      expect(Object.keys(catalogue).sort(), lang).toEqual(Object.keys(enUS).sort());
      for (const key of Object.keys(enUS) as (keyof typeof enUS)[]) {
        expect(catalogue[key].trim(), `${lang} ${key}`).not.toBe('');
        expect(placeholders(catalogue[key]), `${lang} ${key}`).toEqual(placeholders(enUS[key]));
      }
    }
  });

  it('spreadsheet words of one kind differ within each language, so a cell reads one way', () => {
    const sets = [
      ['sheet.yes', 'sheet.no'],
      ['sheet.gender.male', 'sheet.gender.female'],
      ['sheet.mattress.sponge', 'sheet.mattress.spring', 'sheet.mattress.latex'],
      ['sheet.relation.child', 'sheet.relation.friend', 'sheet.relation.relative'],
      ['sheet.level.normal', 'sheet.level.lead'],
    ] as const;
    // Cells are read in every language at once: no word may mean two options in any two languages.
    for (const set of sets) {
      const meaning = new Map<string, string>();
      for (const lang of LANGUAGES) {
        for (const key of set) {
          const word = translate(lang, key).toLowerCase();
          expect(meaning.get(word) ?? key, `${lang} "${word}"`).toBe(key);
          meaning.set(word, key);
        }
      }
    }
  });

  it('spreadsheet column headers name one column in every language', () => {
    const headers = (Object.keys(enUS) as (keyof typeof enUS)[]).filter((k) => k.startsWith('sheet.col.'));
    const meaning = new Map<string, string>();
    for (const lang of LANGUAGES) {
      for (const key of headers) {
        const label = translate(lang, key).replace(/\s+/g, '').toLowerCase();
        expect(meaning.get(label) ?? key, `${lang} "${label}"`).toBe(key);
        meaning.set(label, key);
      }
    }
  });

  it('picks the language from Accept-Language', () => {
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en-US');
    expect(pickLanguage('en')).toBe('en-US');
    expect(pickLanguage('zh-CN')).toBe('zh-CN');
    expect(pickLanguage('fr-FR;q=0.9, en;q=0.5')).toBe('fr');
    expect(pickLanguage('ko-KR')).toBe('ko');
    expect(pickLanguage('pt-BR, es;q=0.8')).toBe('zh-CN');
    expect(pickLanguage(undefined)).toBe('zh-CN');
    expect(pickLanguage('garbage;;;')).toBe('zh-CN');
  });

  it('interpolates parameters', () => {
    expect(translate('en-US', 'login.locked', { minutes: 15 })).toContain('15 minutes');
  });

  it('names the field in validation messages', () => {
    const schema = z.object({ userName: z.string().min(6), pageSize: z.number().max(10) });
    const missing = schema.safeParse({ pageSize: 1 });
    const issue = missing.error?.issues[0];
    if (!issue) throw new Error('expected an issue');
    const d = describeIssue('en-US', issue, { pageSize: 1 });
    expect(d.key).toBe('validation.required');
    expect(translate('en-US', d.key, d.params)).toBe('Account is required.');
    expect(translate('zh-CN', d.key, describeIssue('zh-CN', issue, {}).params)).toBe('账号不能为空。');
    const big = schema.safeParse({ userName: 'abcdefg', pageSize: 11 }).error?.issues[0];
    if (!big) throw new Error('expected an issue');
    const b = describeIssue('en-US', big, {});
    expect(translate('en-US', b.key, b.params)).toBe('Page size must be at most 10.');
  });
});

describe('what pushed frames make stale', () => {
  it('names only frames the server sends', () => {
    const sent = new Set(SocketServerFrameSchema.options.map((o) => o.shape.path.value));
    for (const frame of Object.keys(FRAME_TOUCHES)) expect(sent, frame).toContain(frame);
  });
});
