import { CONSTANTS } from '@vigil/contract/browser';

/** Provider names over 10 characters are cut to 10 plus an ellipsis (spec). */
export const shortProviderName = (name: string): string => {
  const chars = [...name];
  return chars.length > CONSTANTS.providerNameDisplayLength
    ? `${chars.slice(0, CONSTANTS.providerNameDisplayLength).join('')}...`
    : name;
};
