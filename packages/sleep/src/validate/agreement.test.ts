import { describe, expect, it } from 'vitest';
import { Confusion } from './agreement.ts';

describe('Confusion', () => {
  it('gives accuracy, sensitivity and specificity of a two-class table', () => {
    const c = new Confusion(2);
    c.add(1, 1, 40);
    c.add(1, 0, 10);
    c.add(0, 0, 45);
    c.add(0, 1, 5);
    expect(c.accuracy()).toBeCloseTo(0.85);
    expect(c.sensitivity()).toBeCloseTo(0.8);
    expect(c.specificity()).toBeCloseTo(0.9);
  });

  it("gives Cohen's kappa of a worked example", () => {
    // Cohen (1960)-style example: po = 0.7, pe = 0.5 → kappa 0.4.
    const c = new Confusion(2);
    c.add(0, 0, 20);
    c.add(0, 1, 5);
    c.add(1, 0, 10);
    c.add(1, 1, 15);
    expect(c.accuracy()).toBeCloseTo(0.7);
    expect(c.kappa()).toBeCloseTo(0.4);
  });

  it('gives kappa 0 when the prediction ignores the truth', () => {
    const c = new Confusion(4);
    for (let t = 0; t < 4; t++) c.add(t, 2, 10);
    expect(c.kappa()).toBeCloseTo(0);
  });
});
