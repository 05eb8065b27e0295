/** Test doubles for the caregiver screens: a fake server behind fetch, a fake XHR for uploads, rows. */
import type { ResidentRow } from '@vigil/contract/browser';
import { vi } from 'vitest';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import type { CaregiverRow } from './caregiver-model.ts';

export const caregiverRow = (over: Partial<CaregiverRow> = {}): CaregiverRow => ({
  id: 5,
  providerId: 2,
  providerName: 'Sunrise Care',
  name: 'Wang Fang',
  phone: '13812345678',
  job: 'Nursing assistant',
  level: 'lead',
  enabled: true,
  userName: 'wangfang01',
  residents: [
    { id: 11, name: 'Li Hua' },
    { id: 12, name: 'Zhao Lei' },
  ],
  remark: null,
  createTime: '2026-01-02T03:04:05.000Z',
  ...over,
});

/** What a fake route answers: an envelope's parts, or a whole Response (binary downloads). */
export type Answer = { status?: number; msg?: string; msgKey?: string; field?: string; data?: unknown } | Response;

/** A fake API: answers per path, records every request's parsed JSON body. */
export const installFakeServer = () => {
  const routes = new Map<string, (body: Record<string, unknown>) => Answer>();
  const requests: { path: string; body: Record<string, unknown> }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = url.split('?')[0] ?? url;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    requests.push({ path, body });
    const route = routes.get(path);
    const answer = route?.(body) ?? { data: null };
    if (answer instanceof Response) return answer;
    const envelope = {
      status: answer.status ?? 200,
      msg: answer.msg ?? 'ok',
      msgKey: answer.msgKey,
      field: answer.field,
      data: answer.data ?? null,
    };
    // A fake answers only what the real server may: typed against the contract, not a copy of it.
    if (route) checkFakeAnswer(path, envelope);
    return new Response(JSON.stringify(envelope), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return {
    routes,
    requests,
    /** Bodies sent to one path, oldest first. */
    bodiesTo: (path: string) => requests.filter((r) => r.path === path).map((r) => r.body),
    reset() {
      routes.clear();
      requests.length = 0;
    },
  };
};
export type FakeServer = ReturnType<typeof installFakeServer>;

/** XHR stand-in for multipart uploads (imports): records the request, answers when the test says so. */
export class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  body: FormData | null = null;
  status = 200;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  answer(envelope: unknown) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    this.responseText = JSON.stringify(envelope);
    this.onload?.();
  }
}

/** A whole resident row as the resident list answers it. */
export const residentRow = (over: Partial<ResidentRow> & Pick<ResidentRow, 'id' | 'name'>): ResidentRow => ({
  providerId: 2,
  providerName: 'Sunrise Care',
  gender: 1,
  birthDate: '1940-05-06',
  age: 86,
  height: null,
  weight: null,
  medicalHistory: [],
  priority: false,
  remark: null,
  state: 'checkedIn',
  admittedAt: '2026-01-02T03:04:05.000Z',
  checkedOutAt: null,
  bedId: 31,
  bedName: null,
  roomId: 41,
  roomName: null,
  floorId: 51,
  floorName: null,
  areaId: 61,
  areaName: null,
  communityId: null,
  communityName: null,
  contactsCount: 0,
  carers: [],
  away: false,
  createTime: '2026-01-02T03:04:05.000Z',
  ...over,
});
