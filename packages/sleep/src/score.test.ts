import { describe, expect, it } from 'vitest';
import { riskGrade, sleepScore } from './score.ts';

const good = {
  totalSleep: 7.5 * 3600,
  efficiency: 0.9,
  deepShare: 0.18,
  remShare: 0.22,
  continuity: 1,
  wakeAfterOnset: 0,
  latency: 10 * 60,
};

describe('sleepScore', () => {
  it('gives a full night every point', () => {
    expect(sleepScore(good)).toEqual({
      total: 100,
      parts: { duration: 30, efficiency: 20, depth: 20, continuity: 20, latency: 10 },
    });
  });

  it('takes points for each shortfall, part by part', () => {
    const short = sleepScore({ ...good, totalSleep: 5 * 3600 });
    expect(short.parts.duration).toBe(15);
    const restless = sleepScore({ ...good, continuity: 0.5, wakeAfterOnset: 1800 });
    expect(restless.parts.continuity).toBe(10);
    const slow = sleepScore({ ...good, latency: 40 * 60 });
    expect(slow.parts.latency).toBe(5);
    expect(sleepScore({ ...good, efficiency: 0.5, totalSleep: 3 * 3600 }).total).toBe(50);
  });
});

describe('riskGrade', () => {
  const calm = { ahi: 3, afRisk: 'low' as const, heartMin: 52, heartMax: 80, score: 82 };
  it('is low for a calm night and names what raises it', () => {
    expect(riskGrade(calm)).toEqual({ grade: 'low', reasons: [] });
    expect(riskGrade({ ...calm, ahi: 18 })).toEqual({ grade: 'medium', reasons: ['moderateApnea'] });
    expect(riskGrade({ ...calm, ahi: 31, score: 40 })).toEqual({
      grade: 'high',
      reasons: ['severeApnea', 'poorSleep'],
    });
    expect(riskGrade({ ...calm, afRisk: 'likely', heartMin: 38 }).reasons).toEqual(['afLikely', 'lowHeartRate']);
  });
  it('does not guess from what it lacks', () => {
    expect(riskGrade({ ahi: null, afRisk: null, heartMin: null, heartMax: null, score: null }).grade).toBe('low');
  });
});
