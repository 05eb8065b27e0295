import { describe, expect, it } from 'vitest';
import { de as serverGerman } from '../../../../../packages/contract/src/messages/de.ts';
import sharedGerman from './locales/de.json';

/**
 * German names a resident's move into and out of a bed with one pair of words everywhere:
 * „einziehen / Einzug / eingezogen“ and „ausziehen / Auszug / ausgezogen“.
 * The hotel words (ein-/auschecken) and English loans used to appear beside them.
 */
const REJECTED: { variant: RegExp; use: string }[] = [
  { variant: /auscheck|ausgecheckt|checkt\b[^.;]*\baus\b/i, use: 'ausziehen / Auszug' },
  { variant: /eincheck|eingecheckt|checkt\b[^.;]*\bein\b/i, use: 'einziehen / Einzug' },
  { variant: /\bcheck[- ]?(in|out)\b/i, use: 'Einzug / Auszug' },
  { variant: /\b(austragen|ausgetragen)\b/i, use: 'ausziehen / Auszug' },
];

const featureGerman = import.meta.glob<Record<string, string>>('../../features/*/locales/de.json', {
  eager: true,
  import: 'default',
});

const sources: [string, Record<string, string>][] = [
  ...Object.entries(featureGerman),
  ['shared/i18n/locales/de.json', sharedGerman as Record<string, string>],
  ['@vigil/contract messages/de.ts', serverGerman],
];

describe('German wording for check-in and check-out', () => {
  it('scans every German file of the console and the server', () => {
    expect(Object.keys(featureGerman).length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(serverGerman).length).toBeGreaterThan(0);
  });

  it.each(sources)('%s uses only the chosen terms', (_file, texts) => {
    const offending = Object.entries(texts).flatMap(([key, text]) =>
      REJECTED.filter(({ variant }) => variant.test(text)).map(({ use }) => `${key}: "${text}" → use ${use}`),
    );
    expect(offending).toEqual([]);
  });

  it('the bed and the resident pages name the action alike', () => {
    const facility = featureGerman['../../features/facility/locales/de.json'];
    const residents = featureGerman['../../features/residents/locales/de.json'];
    expect(facility?.['bed.checkOut']).toBe(residents?.['actions.checkOut']);
    expect(facility?.['residentState.checkedOut']?.toLowerCase()).toBe(residents?.['state.checkedOut']?.toLowerCase());
    expect(facility?.['residentState.checkedIn']?.toLowerCase()).toBe(residents?.['state.checkedIn']?.toLowerCase());
  });
});
