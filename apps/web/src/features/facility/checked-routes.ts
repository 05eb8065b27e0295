import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import type { Handler } from './test-kit.ts';

/**
 * The routes with every JSON answer checked against the contract call at its path (a binary
 * download's raw Response is passed through), so a fake answers only what the real server may.
 */
export const checkedRoutes = (routes: Record<string, Handler>): Record<string, Handler> =>
  Object.fromEntries(
    Object.entries(routes).map(([path, handler]): [string, Handler] => [
      path,
      (body, count) => {
        const answer = handler(body, count);
        if (!(answer instanceof Response)) checkFakeAnswer(path, answer);
        return answer;
      },
    ]),
  );
