import { getPlatformName, postPlatformName, uploadLogo } from '@vigil/contract/browser';
import { describe, expect, it } from 'vitest';
import { mayCall } from './may-call.ts';

describe('mayCall', () => {
  it('follows the role list of the call', () => {
    expect(mayCall(postPlatformName, 'SENIOR_ROLE')).toBe(true);
    expect(mayCall(postPlatformName, 'ONE_ROLE')).toBe(true);
    expect(mayCall(postPlatformName, 'TWO_ROLE')).toBe(true);
    expect(mayCall(postPlatformName, 'SUPER_ROLE')).toBe(false);
    expect(mayCall(postPlatformName, 'SUB_ROLE')).toBe(false);
    expect(mayCall(uploadLogo, 'BUSINESS_ROLE')).toBe(true);
    expect(mayCall(uploadLogo, 'GOVERNMENT')).toBe(false);
  });

  it('lets any signed-in role make a public or session call, and nobody without a role', () => {
    expect(mayCall(getPlatformName, 'GOVERNMENT')).toBe(true);
    expect(mayCall(getPlatformName, null)).toBe(false);
    expect(mayCall(postPlatformName, undefined)).toBe(false);
  });
});
