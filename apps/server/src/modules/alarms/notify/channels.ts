/** Where an alarm's notification goes besides the console. */
export interface NotifyChannel {
  readonly name: 'sms' | 'chat';
  /** Resolves when the gateway took the message; rejects with why not. */
  send(target: string, text: string): Promise<void>;
}

const TIMEOUT_MS = 5_000;

const post = async (url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
};

/**
 * A generic HTTP SMS gateway: `POST {url}` with `{"to": phone, "text": …}` and the key as a bearer
 * token; any 2xx is taken.
 */
export const httpSms = (url: string, key: string | undefined): NotifyChannel => ({
  name: 'sms',
  send: async (to, text) => {
    await post(url, { to, text }, key ? { authorization: `Bearer ${key}` } : {});
  },
});

/**
 * A chat-app group robot (WeCom / DingTalk style): `POST {url}` with
 * `{"msgtype": "text", "text": {"content": …}}`; a JSON answer with a non-zero `errcode` is a refusal.
 */
export const chatWebhook = (url: string): NotifyChannel => ({
  name: 'chat',
  send: async (_target, text) => {
    const answer = (await post(url, { msgtype: 'text', text: { content: text } })) as {
      errcode?: number;
      errmsg?: string;
    } | null;
    if (answer && typeof answer.errcode === 'number' && answer.errcode !== 0)
      throw new Error(`errcode ${answer.errcode}: ${answer.errmsg ?? ''}`);
  },
});
