/** Where a rejection nobody handled is reported; attached once the server's logger and metrics exist. */
export interface RejectionReport {
  log: (reason: unknown) => void;
  count: () => void;
}

/**
 * The process-wide policy for a promise rejection that no code handled: log it, count it and
 * keep serving. Node's default ends the process, and one such rejection (a console's session
 * check while the database was down) took every instance, its devices and its consoles down
 * with it. A dependency being down is not corrupted state; a crash is kept for that: uncaught
 * exceptions still end the process (decision 0032).
 */
export const keepServingOnUnhandledRejection = (): { attach: (report: RejectionReport) => void } => {
  let report: RejectionReport = {
    log: (reason) => console.error('unhandled promise rejection (the server keeps serving):', reason),
    count: () => undefined,
  };
  process.on('unhandledRejection', (reason) => {
    report.count();
    report.log(reason);
  });
  return { attach: (next) => (report = next) };
};
