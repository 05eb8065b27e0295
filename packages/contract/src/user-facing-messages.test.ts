import { describe, expect, it } from 'vitest';
import { LANGUAGES, messageCatalogue } from './messages/index.ts';

/** What a server setting looks like: TELECOM_API_URL, VIGIL_ADMIN_PASSWORD, DATABASE_URL. */
const VARIABLE_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/;

describe('server messages a user reads', () => {
  it('the pattern finds setting names and spares ordinary words', () => {
    for (const name of ['TELECOM_API_URL', 'TELECOM_APP_KEY', 'DATABASE_URL', 'VIGIL_ADMIN_PASSWORD']) {
      expect(`(${name})`).toMatch(VARIABLE_NAME);
    }
    for (const word of ['NB-IoT', 'IMEI', 'ICCID', 'Excel (.xlsx)', '4G', 'snake_case']) {
      expect(word).not.toMatch(VARIABLE_NAME);
    }
  });

  it.each(LANGUAGES)('names no server setting in %s', (lang) => {
    const leaking = Object.entries(messageCatalogue(lang))
      .filter(([, text]) => VARIABLE_NAME.test(text))
      .map(([key, text]) => `${key}: ${text}`);
    expect(leaking).toEqual([]);
  });
});
