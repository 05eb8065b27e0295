import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.ts';

describe('pageTitle', () => {
  it('names the screen, then the platform', () => {
    expect(pageTitle('Provider management', 'Chestnut Portal')).toBe('Provider management - Chestnut Portal');
    expect(pageTitle('服务商管理', '护理平台')).toBe('服务商管理 - 护理平台');
  });

  it('falls back to the platform name alone', () => {
    expect(pageTitle(undefined, 'Vigil')).toBe('Vigil');
    expect(pageTitle(null, 'Vigil')).toBe('Vigil');
    expect(pageTitle('  ', 'Vigil')).toBe('Vigil');
  });
});
