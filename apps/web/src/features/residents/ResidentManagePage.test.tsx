import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  deleteResident,
  getAreaWithRoomList,
  getBunkConfiguration,
  getResident,
  residentList,
  residentSummary,
  startAbsence,
  userCheckIn,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { restoreWindowWidth, setWindowWidth } from '../../test/window-width.ts';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import { formatTime } from './format.ts';
import type { ResidentRow } from './resident-model.ts';
import ResidentManagePage from './ResidentManagePage.tsx';
import { refused, residentDetail, residentRow, type Envelope } from './test-fixtures.ts';

/** A request the screen made: path, query and JSON body. */
interface Sent {
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
}
type Answer = (sent: Sent) => Envelope | Response;

// The API client looks fetch up at each call, so replacing it here is enough.
const server = (() => {
  const answers = new Map<string, Answer>();
  const sent: Sent[] = [];
  const mock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
    const request = { path: url.pathname, query: url.searchParams, body };
    sent.push(request);
    const answer = answers.get(url.pathname);
    const envelope = answer ? answer(request) : { status: 200, msg: 'ok', data: null };
    if (envelope instanceof Response) return envelope;
    // A fake answers only what the real server may: typed against the contract, not a copy of it.
    if (answer) checkFakeAnswer(url.pathname, envelope);
    return new Response(JSON.stringify(envelope), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  globalThis.fetch = mock as unknown as typeof fetch;
  return { answers, sent, mock };
})();

const LIST = '/userManagement/userList';
const registered = residentRow({ id: 1, name: 'Ma Jun', state: 'registered' });
const checkedIn = residentRow({
  id: 2,
  name: 'Zhao Guilan',
  gender: 1,
  state: 'checkedIn',
  priority: true,
  areaName: 'Building A',
  floorName: '1F',
  roomName: '102',
  bedName: '1',
  bedId: 21,
  admittedAt: '2026-01-05T02:00:00.000Z',
  carers: [{ id: 5, name: 'Li Mei' }],
});
const away = residentRow({ id: 3, name: 'Liu Xiuying', gender: 1, state: 'checkedIn', away: true, bedName: '2' });
const checkedOut = residentRow({
  id: 4,
  name: 'Wu Baoguo',
  state: 'checkedOut',
  roomName: '103',
  admittedAt: '2025-11-01T02:00:00.000Z',
  checkedOutAt: '2026-02-10T08:30:00.000Z',
});

const defaults = (rows: ResidentRow[]) => {
  server.answers.clear();
  server.answers.set(LIST, () => okFor(residentList, pageOf(rows, 25)));
  server.answers.set('/userManagement/userSummary', () =>
    okFor(residentSummary, {
      total: 25,
      byState: { registered: 9, checkedIn: 12, checkedOut: 3, loggedOff: 1 },
      priority: 4,
      male: 11,
      female: 14,
      away: 2,
    }),
  );
  server.answers.set('/area/getAreaWithRoomList', () => okFor(getAreaWithRoomList, []));
};

// antd screens render slowly in jsdom; on a busy machine a test may need more than the default 30 s.
vi.setConfig({ testTimeout: 90_000 });

let i18n: I18n;
beforeAll(async () => {
  // antd screens render slowly in jsdom; a busy machine must not turn that into failures.
  configure({ asyncUtilTimeout: 10_000 });
  i18n = await englishI18n();
});
afterEach(() => {
  server.sent.length = 0;
  server.mock.mockClear();
});

/** Renders the list at `path`; fewer rows make the slower jsdom tests quicker. */
const show = (path = '/people-manage/userManage', rows: ResidentRow[] = [registered, checkedIn, away, checkedOut]) => {
  defaults(rows);
  render(inTestShell(i18n, <ResidentManagePage />, path));
};
const requests = (path: string) => server.sent.filter((s) => s.path === path);
const lastList = () => requests(LIST).at(-1)?.body;
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
/** Opens an antd Select by its test id and clicks the option showing `label`. */
const choose = async (testId: string, label: string) => {
  // By selector, not role: role queries compute styles for the whole table, slow in jsdom.
  fireEvent.mouseDown(screen.getByTestId(testId).querySelector('input') as HTMLElement);
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
      (o) => o.textContent === label,
    );
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
};
/** The OK button of the confirmation dialog on top. */
const confirmDialog = async () => {
  const dialogs = await waitFor(() => {
    const found = document.querySelectorAll<HTMLElement>('.ant-modal-confirm');
    if (found.length === 0) throw new Error('no confirmation');
    return found;
  });
  return dialogs[dialogs.length - 1] as HTMLElement;
};
const pressOk = async () => {
  const dialog = await confirmDialog();
  fireEvent.click(dialog.querySelector('.ant-btn-primary') as HTMLElement);
};

describe('ResidentManagePage', () => {
  it('shows the summary counts and the first page of residents', async () => {
    show();
    expect(await screen.findByText('Ma Jun')).toBeInTheDocument();
    expect(lastList()).toEqual({ pageNum: 1, pageSize: 10 });
    const summary = screen.getByTestId('resident-summary');
    await waitFor(() => expect(within(summary).getByTestId('summary-checkedIn').textContent).toContain('12'));
    expect(within(summary).getByTestId('summary-gender').textContent).toContain('11 / 14');
    expect(within(await rowOf('Zhao Guilan')).getByText('Building A / 1F / 102 / 1')).toBeInTheDocument();
    expect(within(await rowOf('Zhao Guilan')).getByText('Priority')).toBeInTheDocument();
    expect(within(await rowOf('Liu Xiuying')).getByText('Away')).toBeInTheDocument();
    // Each row says since when it is in its state: admission when checked in, departure when checked out.
    expect(screen.getAllByText('In this state since').length).toBeGreaterThan(0);
    expect(within(await rowOf('Zhao Guilan')).getByText(formatTime('2026-01-05T02:00:00.000Z'))).toBeInTheDocument();
    const gone = await rowOf('Wu Baoguo');
    expect(within(gone).getByText(formatTime('2026-02-10T08:30:00.000Z'))).toBeInTheDocument();
    expect(within(gone).queryByText(formatTime('2025-11-01T02:00:00.000Z'))).toBeNull();
  });

  it('goes back to page 1 when a filter is applied', async () => {
    show(undefined, [registered]);
    await screen.findByText('Ma Jun');
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(lastList()).toEqual({ pageNum: 2, pageSize: 10 }));
    fireEvent.change(screen.getByPlaceholderText('Name or contact phone'), { target: { value: ' Zhao ' } });
    await choose('resident-filter-state', 'Checked in');
    fireEvent.click(screen.getByTestId('resident-search'));
    await waitFor(() => expect(lastList()).toEqual({ pageNum: 1, pageSize: 10, keyWord: 'Zhao', state: 'checkedIn' }));
  });

  it('sends gender, priority and age range together, and Reset clears them', async () => {
    show(undefined, [registered]);
    await screen.findByText('Ma Jun');
    await choose('resident-filter-gender', 'Female');
    await choose('resident-filter-priority', 'Priority only');
    fireEvent.change(screen.getByPlaceholderText('From'), { target: { value: '70' } });
    fireEvent.change(screen.getByPlaceholderText('To'), { target: { value: '95' } });
    fireEvent.click(screen.getByTestId('resident-search'));
    await waitFor(() =>
      expect(lastList()).toEqual({ pageNum: 1, pageSize: 10, gender: 1, priority: true, ageMin: 70, ageMax: 95 }),
    );
    fireEvent.click(screen.getByTestId('resident-reset'));
    await waitFor(() => expect(lastList()).toEqual({ pageNum: 1, pageSize: 10 }));
  });

  it('reads its filters and page from the address (back from the edit page)', async () => {
    show('/people-manage/userManage?state=checkedOut&roomId=7&pageNum=2');
    await screen.findByText('Ma Jun');
    expect(lastList()).toEqual({ pageNum: 2, pageSize: 10, state: 'checkedOut', roomId: 7 });
  });

  it('refuses a reversed age range in the form without asking the server', async () => {
    show(undefined, [registered]);
    await screen.findByText('Ma Jun');
    const before = requests(LIST).length;
    fireEvent.change(screen.getByPlaceholderText('From'), { target: { value: '90' } });
    fireEvent.change(screen.getByPlaceholderText('To'), { target: { value: '70' } });
    fireEvent.click(screen.getByTestId('resident-search'));
    expect(await screen.findByText('The maximum age must not be below the minimum age.')).toBeInTheDocument();
    expect(requests(LIST).length).toBe(before);
  });

  it('narrows the list to a state when its count is clicked', async () => {
    show(undefined, [registered]);
    await screen.findByText('Ma Jun');
    fireEvent.click(screen.getByTestId('summary-checkedOut'));
    await waitFor(() => expect(lastList()).toEqual({ pageNum: 1, pageSize: 10, state: 'checkedOut' }));
  });

  it('offers the actions of each lifecycle state', async () => {
    show();
    const reg = await rowOf('Ma Jun');
    expect(within(reg).getByText('Check in')).toBeInTheDocument();
    expect(within(reg).getByText('Delete')).toBeInTheDocument();
    expect(within(reg).queryByText('Check out')).not.toBeInTheDocument();
    const inBed = await rowOf('Zhao Guilan');
    expect(within(inBed).getByText('Change bed')).toBeInTheDocument();
    expect(within(inBed).getByText('Check out')).toBeInTheDocument();
    expect(within(inBed).getByText('Temporary absence')).toBeInTheDocument();
    expect(within(inBed).queryByText('Delete')).not.toBeInTheDocument();
    expect(within(await rowOf('Liu Xiuying')).getByText('Record return')).toBeInTheDocument();
    const out = await rowOf('Wu Baoguo');
    expect(within(out).getByText('Log off')).toBeInTheDocument();
    expect(within(out).queryByText('Delete')).not.toBeInTheDocument();
  });

  it('checks a resident out after confirmation', async () => {
    show();
    fireEvent.click(within(await rowOf('Zhao Guilan')).getByText('Check out'));
    expect((await confirmDialog()).textContent).toContain('Check Zhao Guilan out of Building A / 1F / 102 / 1?');
    expect(requests('/bunkManagement/checkOut')).toHaveLength(0);
    await pressOk();
    await waitFor(() => expect(requests('/bunkManagement/checkOut').map((s) => s.body)).toEqual([{ userId: 2 }]));
    expect(await screen.findByText('Zhao Guilan has been checked out.')).toBeInTheDocument();
  });

  it('deletes a registered resident and logs off a checked-out one with the same call', async () => {
    show();
    server.answers.set('/userManagement/deleteById', (s) =>
      okFor(deleteResident, { outcome: s.query.get('id') === '1' ? 'deleted' : 'loggedOff' }),
    );
    fireEvent.click(within(await rowOf('Ma Jun')).getByText('Delete'));
    await pressOk();
    expect(await screen.findByText('Ma Jun has been deleted.')).toBeInTheDocument();
    fireEvent.click(within(await rowOf('Wu Baoguo')).getByText('Log off'));
    expect((await confirmDialog()).textContent).toContain('all records are kept');
    await pressOk();
    expect(await screen.findByText('Wu Baoguo has been logged off; their records are kept.')).toBeInTheDocument();
    expect(requests('/userManagement/deleteById').map((s) => s.query.get('id'))).toEqual(['1', '4']);
  });

  it("shows the server's message when an action is refused", async () => {
    show();
    server.answers.set('/userManagement/deleteById', () =>
      refused(300, 'This resident is checked in to a bed. Check them out before deleting.', 'resident.deleteCheckedIn'),
    );
    fireEvent.click(within(await rowOf('Ma Jun')).getByText('Delete'));
    await pressOk();
    expect(
      await screen.findByText('This resident is checked in to a bed. Check them out before deleting.'),
    ).toBeInTheDocument();
  });

  it('records a return for a resident who is away', async () => {
    show();
    fireEvent.click(within(await rowOf('Liu Xiuying')).getByText('Record return'));
    await pressOk();
    await waitFor(() => expect(requests('/user/transient/delete').map((s) => s.query.get('userId'))).toEqual(['3']));
  });

  it('starts a temporary absence with a reason', async () => {
    show();
    server.answers.set('/getUserMessageById', () =>
      okFor(getResident, residentDetail({ ...checkedIn, absence: null, contacts: [] })),
    );
    server.answers.set('/user/transient/post', () =>
      okFor(startAbsence, {
        id: 1,
        startTime: '2026-01-06T02:00:00.000Z',
        endTime: null,
        reason: 'Hospital',
        active: true,
      }),
    );
    fireEvent.click(within(await rowOf('Zhao Guilan')).getByText('Temporary absence'));
    await waitFor(() => expect(screen.getByTestId('absence-form')).not.toHaveAttribute('hidden'));
    const reason = screen.getByTestId('absence-form').querySelector('textarea') as HTMLElement;
    fireEvent.change(reason, { target: { value: ' Hospital ' } });
    fireEvent.click(screen.getByText('Start absence'));
    await waitFor(() =>
      expect(requests('/user/transient/post').map((s) => s.body)).toEqual([{ userId: 2, reason: 'Hospital' }]),
    );
  });

  it('shows an open absence and ends it', async () => {
    show();
    server.answers.set('/getUserMessageById', () =>
      okFor(
        getResident,
        residentDetail({
          ...checkedIn,
          contacts: [],
          absence: { id: 4, startTime: '2030-01-06T02:00:00.000Z', endTime: null, reason: 'Visit', active: false },
        }),
      ),
    );
    fireEvent.click(within(await rowOf('Zhao Guilan')).getByText('Temporary absence'));
    expect(await screen.findByTestId('absence-open')).toHaveTextContent('Planned');
    fireEvent.click(screen.getByTestId('absence-end'));
    await waitFor(() => expect(requests('/user/transient/delete').map((s) => s.query.get('userId'))).toEqual(['2']));
  });

  it('checks in to a picked bed, showing the conflicts and resending confirmed', async () => {
    show(undefined, [registered]);
    const bed = { id: 31, name: '1', mattress: 'sponge' as const, userId: null, userName: null, deviceId: null };
    server.answers.set('/userBunk/getConfiguration', (s) => {
      expect(s.query.get('free')).toBe('true');
      return okFor(getBunkConfiguration, {
        mattresses: ['sponge'],
        deviceTypes: [49],
        areas: [
          {
            id: 1,
            name: 'Building A',
            providerId: 2,
            floors: [{ id: 3, name: '2F', rooms: [{ id: 7, name: '201', beds: [bed] }] }],
          },
        ],
      });
    });
    server.answers.set('/user/getUserCheckIn', (s) =>
      s.body?.confirm
        ? okFor(userCheckIn, {
            id: 31,
            providerId: 2,
            providerName: 'Sunrise East',
            areaId: 1,
            areaName: 'Building A',
            floorId: 3,
            floorName: '2F',
            roomId: 7,
            roomName: '201',
            name: '1',
            mattress: 'sponge',
            deviceId: null,
            deviceType: null,
            deviceOnline: null,
            deviceState: null,
            userId: 1,
            userName: 'Ma Jun',
            remark: null,
            createTime: '2026-01-01T02:00:00.000Z',
          })
        : refused(300, 'Please confirm', 'bed.confirmMove', {
            confirmRequired: true,
            conflicts: [
              {
                kind: 'occupant',
                bunkId: 31,
                bunkPath: 'Building A / 2F / 201 / 1',
                deviceId: null,
                userId: 9,
                userName: 'He Wenbin',
              },
            ],
          }),
    );
    fireEvent.click(within(await rowOf('Ma Jun')).getByText('Check in'));
    await waitFor(() => expect(requests('/userBunk/getConfiguration')).toHaveLength(1));
    const picker = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-testid=checkin-bed] input');
      if (!found) throw new Error('no bed picker');
      return found;
    });
    fireEvent.mouseDown(picker);
    for (const label of ['Building A', '2F', '201', '1']) {
      const item = await waitFor(() => {
        const found = [...document.querySelectorAll<HTMLElement>('.ant-cascader-menu-item')].find(
          (i) => i.textContent === label,
        );
        if (!found) throw new Error(`no ${label}`);
        return found;
      });
      fireEvent.click(item);
    }
    const footer = document.querySelector('.ant-modal-footer') as HTMLElement;
    fireEvent.click(within(footer).getByText('Check in'));
    expect((await confirmDialog()).textContent).toContain(
      'Building A / 2F / 201 / 1 is occupied by He Wenbin, who will be checked out.',
    );
    expect(requests('/user/getUserCheckIn').map((s) => s.body)).toEqual([{ userId: 1, bunkId: 31 }]);
    await pressOk();
    await waitFor(() =>
      expect(requests('/user/getUserCheckIn').map((s) => s.body)).toEqual([
        { userId: 1, bunkId: 31 },
        { userId: 1, bunkId: 31, confirm: true },
      ]),
    );
    expect(await screen.findByText('Ma Jun is checked in to Building A / 2F / 201 / 1.')).toBeInTheDocument();
  });

  it('exports the current filters without paging', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    // jsdom cannot follow the download link.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    show('/people-manage/userManage?gender=0&pageNum=3');
    server.answers.set(
      '/userManagement/exportData',
      () =>
        new Response(new Uint8Array([1, 2, 3]), {
          status: 200,
          headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
        }),
    );
    await screen.findByText('Ma Jun');
    fireEvent.click(screen.getByTestId('export'));
    await waitFor(() => expect(requests('/userManagement/exportData').map((s) => s.body)).toEqual([{ gender: 0 }]));
  });

  it('shows each resident as a card on a phone: name and state over the place, since when, and the actions', async () => {
    setWindowWidth(390);
    try {
      show('/people-manage/userManage', [registered, checkedIn]);
      const card = (await screen.findByText('Zhao Guilan')).closest('[data-testid="list-card"]') as HTMLElement;
      expect(card.querySelector('[data-card="title"]')).toHaveTextContent('Priority');
      expect(card.querySelector('[data-card="state"]')).toHaveTextContent('Checked in');
      expect(card.querySelector('[data-field="place"]')).toHaveTextContent('Building A / 1F / 102 / 1');
      expect(card.querySelector('[data-field="since"]')).toHaveTextContent(formatTime('2026-01-05T02:00:00.000Z'));
      expect(card.querySelector('[data-field="carers"]')).toHaveTextContent('Li Mei');
      expect(within(card).getByText('Check out')).toBeInTheDocument();
      expect(document.querySelector('table')).toBeNull();
    } finally {
      restoreWindowWidth();
    }
  });
});
