/** A part of the server that runs in the background: a timer, a writer, a broker, a stream. */
export interface Part {
  name: string;
  /** `report` logs a failure of the running part (a timer's flush, a lost connection). */
  start(report: (error: unknown) => void): Promise<void> | void;
  stop(): Promise<void> | void;
}

/**
 * Starts parts in the order added and stops them in reverse, so what produces work stops
 * before what stores it: add the writers first and the broker last, and on SIGTERM the broker
 * stops taking messages before the writers flush what they hold.
 */
export class Lifecycle {
  private readonly parts: Part[] = [];
  private running: Part[] = [];

  add(part: Part): this {
    this.parts.push(part);
    return this;
  }

  /** Starts every part; when one fails, stops those already started and rethrows. */
  async start(report: (name: string, error: unknown) => void): Promise<void> {
    for (const part of this.parts) {
      try {
        await part.start((error) => report(part.name, error));
      } catch (error) {
        await this.stop(report);
        throw error;
      }
      this.running.push(part);
    }
  }

  /** Stops the running parts in reverse order; a failing stop is reported and the rest still stop. */
  async stop(report: (name: string, error: unknown) => void): Promise<void> {
    const running = this.running.reverse();
    this.running = [];
    for (const part of running) {
      try {
        await part.stop();
      } catch (error) {
        report(part.name, error);
      }
    }
  }
}
