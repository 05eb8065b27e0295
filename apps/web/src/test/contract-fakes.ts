import { assertDeclaredEnvelope } from '@vigil/contract';

/** Answers of test fakes the contract refuses, reported after each test (see setup.ts). */
const violations: string[] = [];

/**
 * Checks a fake's envelope against the call at `path` (result schema, or the failure data of its
 * message key). The console catches the fetch's rejection and shows a toast, which would hide the
 * cause, so each violation is also kept and fails the test in `afterEach`.
 */
export const checkFakeAnswer = (path: string, envelope: { status: number; msgKey?: string; data: unknown }) => {
  try {
    assertDeclaredEnvelope(path, envelope);
  } catch (error) {
    violations.push(error instanceof Error ? error.message : String(error));
    throw error;
  }
};

/** The violations since the last call, emptied. */
export const takeFakeViolations = (): string[] => violations.splice(0);
