/** Agreement figures between a detector and expert labels, pooled over records. */

/** A confusion matrix over `classes` labels: `cells[truth * classes + predicted]`. */
export class Confusion {
  readonly cells: Float64Array;
  constructor(readonly classes: number) {
    this.cells = new Float64Array(classes * classes);
  }
  add(truth: number, predicted: number, weight = 1): void {
    const index = truth * this.classes + predicted;
    this.cells[index] = (this.cells[index] ?? 0) + weight;
  }
  merge(other: Confusion): void {
    other.cells.forEach((value, i) => (this.cells[i] = (this.cells[i] ?? 0) + value));
  }
  get total(): number {
    return this.cells.reduce((sum, value) => sum + value, 0);
  }
  cell(truth: number, predicted: number): number {
    return this.cells[truth * this.classes + predicted] ?? 0;
  }
  accuracy(): number {
    let agree = 0;
    for (let k = 0; k < this.classes; k++) agree += this.cell(k, k);
    return this.total === 0 ? Number.NaN : agree / this.total;
  }
  /** Cohen's kappa: agreement beyond what the two marginals give by chance. */
  kappa(): number {
    const total = this.total;
    if (total === 0) return Number.NaN;
    let chance = 0;
    for (let k = 0; k < this.classes; k++) {
      let truth = 0;
      let predicted = 0;
      for (let j = 0; j < this.classes; j++) {
        truth += this.cell(k, j);
        predicted += this.cell(j, k);
      }
      chance += (truth / total) * (predicted / total);
    }
    return chance === 1 ? Number.NaN : (this.accuracy() - chance) / (1 - chance);
  }
  /** Of the truly positive (class 1), the share found. Two classes only. */
  sensitivity(): number {
    const positives = this.cell(1, 0) + this.cell(1, 1);
    return positives === 0 ? Number.NaN : this.cell(1, 1) / positives;
  }
  /** Of the truly negative (class 0), the share left alone. Two classes only. */
  specificity(): number {
    const negatives = this.cell(0, 0) + this.cell(0, 1);
    return negatives === 0 ? Number.NaN : this.cell(0, 0) / negatives;
  }
}
