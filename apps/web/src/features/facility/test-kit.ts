import { fireEvent, screen, waitFor } from '@testing-library/react';

/**
 * A fake API for the facility screen's tests: answers each call path with a handler, records
 * every request (JSON body, or the query of a GET) so a test can check what was sent.
 */
export interface Envelope {
  status: number;
  msg: string;
  data: unknown;
  msgKey?: string;
}
export type Body = Record<string, unknown>;
/** Answers one request; `count` is how many requests to this path were made, this one included. */
export type Handler = (body: Body, count: number) => Envelope | Response;

export const ok = (data: unknown): Envelope => ({ status: 200, msg: 'ok', data });
export const refuse = (msg: string, msgKey?: string, data: unknown = null, status = 400): Envelope => ({
  status,
  msg,
  data,
  ...(msgKey ? { msgKey } : {}),
});

export const fakeServer = (routes: Record<string, Handler>) => {
  const requests: { path: string; body: Body }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const body: Body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as Body) : Object.fromEntries(url.searchParams);
    requests.push({ path: url.pathname, body });
    const count = requests.filter((r) => r.path === url.pathname).length;
    const handler = routes[url.pathname];
    const answer = handler ? handler(body, count) : ok(null);
    return answer instanceof Response
      ? answer
      : new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  return {
    fetch,
    /** Bodies sent to a path, oldest first. */
    bodies: (path: string): Body[] => requests.filter((r) => r.path === path).map((r) => r.body),
    last: (path: string): Body | undefined => requests.filter((r) => r.path === path).at(-1)?.body,
  };
};

/** Opens an antd Select by its test id and clicks the option showing `label`. */
export const choose = async (testId: string, label: string | RegExp) => {
  fireEvent.mouseDown(screen.getByTestId(testId));
  const option = await waitFor(
    () => {
      const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) =>
        typeof label === 'string' ? o.textContent === label : label.test(o.textContent ?? ''),
      );
      if (!found) throw new Error(`no option ${String(label)} in ${testId}`);
      return found;
    },
    { timeout: 5000 },
  );
  fireEvent.click(option);
};

/** The error messages antd shows under form fields. */
export const fieldErrors = (): string[] =>
  [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent ?? '');
