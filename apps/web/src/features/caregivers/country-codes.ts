/**
 * Country calling codes the overseas variant offers, with a region whose name the browser
 * translates (Intl.DisplayNames), so no country names need translating here. A number from
 * elsewhere can still be typed whole, starting with +.
 */
export const COUNTRY_CODES: readonly { code: string; region: string }[] = [
  { code: '1', region: 'US' },
  { code: '7', region: 'RU' },
  { code: '31', region: 'NL' },
  { code: '32', region: 'BE' },
  { code: '33', region: 'FR' },
  { code: '34', region: 'ES' },
  { code: '39', region: 'IT' },
  { code: '41', region: 'CH' },
  { code: '43', region: 'AT' },
  { code: '44', region: 'GB' },
  { code: '45', region: 'DK' },
  { code: '46', region: 'SE' },
  { code: '47', region: 'NO' },
  { code: '48', region: 'PL' },
  { code: '49', region: 'DE' },
  { code: '60', region: 'MY' },
  { code: '61', region: 'AU' },
  { code: '62', region: 'ID' },
  { code: '63', region: 'PH' },
  { code: '64', region: 'NZ' },
  { code: '65', region: 'SG' },
  { code: '66', region: 'TH' },
  { code: '81', region: 'JP' },
  { code: '82', region: 'KR' },
  { code: '84', region: 'VN' },
  { code: '86', region: 'CN' },
  { code: '91', region: 'IN' },
  { code: '351', region: 'PT' },
  { code: '353', region: 'IE' },
  { code: '358', region: 'FI' },
  { code: '420', region: 'CZ' },
  { code: '421', region: 'SK' },
  { code: '852', region: 'HK' },
  { code: '853', region: 'MO' },
  { code: '886', region: 'TW' },
  { code: '971', region: 'AE' },
];

/** The code a new overseas number starts with: the country of the interface language. */
const BY_LANGUAGE: Record<string, string> = {
  'zh-CN': '86',
  'en-US': '1',
  ko: '82',
  ja: '81',
  de: '49',
  cs: '420',
  it: '39',
  fr: '33',
};
export const defaultCountryCode = (language: string): string => BY_LANGUAGE[language] ?? '44';

/** "Germany" for DE in the interface language; the region code where the browser cannot say. */
export const regionName = (region: string, language: string): string => {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(region) ?? region;
  } catch {
    return region;
  }
};

/**
 * A stored phone split back into the overseas form's code and national number: an 11-digit
 * mainland mobile is +86; otherwise the longest known code that prefixes it. A number with an
 * unknown code stays whole (with its +) in the number field.
 */
export const splitPhone = (stored: string, fallbackCode: string): { countryCode: string; national: string } => {
  if (/^1[3-9]\d{9}$/.test(stored)) return { countryCode: '86', national: stored };
  if (!stored.startsWith('+')) return { countryCode: fallbackCode, national: stored };
  const digits = stored.slice(1);
  const match = COUNTRY_CODES.filter((c) => digits.startsWith(c.code)).sort((a, b) => b.code.length - a.code.length)[0];
  return match
    ? { countryCode: match.code, national: digits.slice(match.code.length) }
    : { countryCode: fallbackCode, national: stored };
};
