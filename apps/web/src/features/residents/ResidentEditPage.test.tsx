import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  getResident,
  insertResident,
  queryCommunityList,
  queryNursingList,
  type EndpointResult,
} from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { useEffect } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkFakeAnswer } from '../../test/contract-fakes.ts';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { okFor, pageOf } from '../../test/typed-answers.ts';
import { caregiverRow } from '../caregivers/test-support.ts';
import ResidentEditPage from './ResidentEditPage.tsx';
import { EDIT_PATH, LIST_PATH, type ReturnState } from './resident-model.ts';
import { ok, refused, residentDetail, type Envelope } from './test-fixtures.ts';

interface Sent {
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | null;
}
type Answer = (sent: Sent) => Envelope;

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
    // A fake answers only what the real server may: typed against the contract, not a copy of it.
    if (answer) checkFakeAnswer(url.pathname, envelope);
    return new Response(JSON.stringify(envelope), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  globalThis.fetch = mock as unknown as typeof fetch;
  return { answers, sent, mock };
})();

/** Caregivers and communities of the resident's provider, as the pickers load them. */
const carer = (id: number, name: string, phone: string) =>
  caregiverRow({ id, providerId: 2, providerName: 'Sunrise East', name, phone, residents: [] });
const riverside: EndpointResult<typeof queryCommunityList>['rows'][number] = {
  id: 8,
  providerId: 2,
  providerName: 'Sunrise East',
  name: 'Riverside',
  address: null,
  contact: null,
  phone: null,
  remark: null,
  residentCount: 1,
  alarmConfig: null,
  createTime: '2026-01-01T02:00:00.000Z',
};

const INSERT = '/insertUser';
const UPDATE = '/updateUser';

// antd screens render slowly in jsdom; on a busy machine a test may need more than the default 30 s.
vi.setConfig({ testTimeout: 90_000 });

let i18n: I18n;
beforeAll(async () => {
  // antd screens render slowly in jsdom; a busy machine must not turn that into failures.
  configure({ asyncUtilTimeout: 10_000 });
  i18n = await englishI18n();
});
afterEach(() => {
  server.answers.clear();
  server.sent.length = 0;
  server.mock.mockClear();
});

/** Where the page sent the user back to. */
const ListProbe = () => {
  const location = useLocation();
  return <div data-testid="at-list">{`${location.pathname}${location.search}`}</div>;
};
/** Opens the edit page as the list does: with the list's filters in the navigation state. */
const FromList = ({ to }: { to: string }) => {
  const navigate = useNavigate();
  useEffect(() => {
    const state: ReturnState = { listSearch: 'gender=1&pageNum=2' };
    void navigate(to, { state });
  }, [navigate, to]);
  return null;
};

/** Renders the page at `to`, coming from the list; answers a test sets before this call are kept. */
const show = (to: string) => {
  server.answers.set('/nursing/queryNursingList', () =>
    okFor(queryNursingList, pageOf([carer(5, 'Li Mei', '13800138001'), carer(6, 'Wang Fang', '13800138002')])),
  );
  server.answers.set('/community/queryCommunityList', () => okFor(queryCommunityList, pageOf([riverside])));
  render(
    inTestShell(
      i18n,
      <Routes>
        <Route path="/start" element={<FromList to={to} />} />
        <Route path={EDIT_PATH} element={<ResidentEditPage />} />
        <Route path={LIST_PATH} element={<ListProbe />} />
      </Routes>,
      '/start',
    ),
  );
};
const requests = (path: string) => server.sent.filter((s) => s.path === path);
const form = () => screen.getByTestId('resident-form');
const input = (label: string) => within(form()).getByLabelText(label) as HTMLInputElement;
const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
const save = () => fireEvent.click(screen.getByTestId('resident-save'));
const typeBirthDate = (value: string) => {
  const field = screen.getByTestId('resident-birth-date').querySelector('input') ?? input('Date of birth');
  fireEvent.mouseDown(field);
  fireEvent.change(field, { target: { value } });
  fireEvent.keyDown(field, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.blur(field);
};
const confirmation = async () =>
  waitFor(() => {
    const found = document.querySelector<HTMLElement>('.ant-modal-confirm');
    if (!found) throw new Error('no confirmation');
    return found;
  });
const fillNewResident = async () => {
  await screen.findByTestId('resident-form');
  fireEvent.change(input('Name'), { target: { value: ' Chen Jianguo ' } });
  fireEvent.click(within(form()).getByText('Male'));
  typeBirthDate('1941-05-12');
};

describe('ResidentEditPage', () => {
  it("refuses bad input in the form with the server's rules, sending nothing", async () => {
    show(EDIT_PATH);
    await screen.findByTestId('resident-form');
    fireEvent.change(input('Height'), { target: { value: '300' } });
    fireEvent.click(screen.getByTestId('contact-add'));
    const contact = screen.getByTestId('contact-0');
    fireEvent.change(within(contact).getByLabelText('Mobile number'), { target: { value: '12345' } });
    fireEvent.change(within(form()).getByLabelText('Remark'), { target: { value: 'x'.repeat(201) } });
    save();
    await waitFor(() =>
      expect(errors()).toEqual(
        expect.arrayContaining([
          'Required',
          'Required',
          'A whole number from 1 to 255 (cm).',
          'Not a valid mobile number: 11 digits for mainland China, otherwise + and the country code.',
          'At most 200 characters.',
        ]),
      ),
    );
    expect(requests(INSERT)).toHaveLength(0);
  });

  it('asks before registering a second resident of the same name, then resends confirmed and returns to the list', async () => {
    server.answers.set(INSERT, (s) =>
      s.body?.confirm
        ? okFor(insertResident, { id: 40 })
        : refused(300, 'A resident named Chen Jianguo already exists.', 'resident.sameName', { existingIds: [1] }),
    );
    show(EDIT_PATH);
    await fillNewResident();
    fireEvent.click(within(form()).getByText('Hypertension'));
    fireEvent.click(screen.getByTestId('contact-add'));
    const contact = screen.getByTestId('contact-0');
    fireEvent.change(within(contact).getByLabelText('Contact name'), { target: { value: 'Chen Jr' } });
    fireEvent.change(within(contact).getByLabelText('Mobile number'), { target: { value: '139 0000 1000' } });
    save();
    const dialog = await confirmation();
    expect(dialog.textContent).toContain('A resident named Chen Jianguo is already registered. Save this one as well?');
    const first = {
      name: 'Chen Jianguo',
      gender: 0,
      birthDate: '1941-05-12',
      height: null,
      weight: null,
      medicalHistory: ['hypertension'],
      otherHistory: null,
      contacts: [{ name: 'Chen Jr', phone: '139 0000 1000', relation: 'child' }],
      priority: false,
      remark: null,
      caregiverIds: [],
      communityId: null,
      confirm: false,
    };
    expect(requests(INSERT).map((s) => s.body)).toEqual([first]);
    fireEvent.click(within(dialog).getByText('Save anyway'));
    await waitFor(() => expect(requests(INSERT).map((s) => s.body)).toEqual([first, { ...first, confirm: true }]));
    expect(await screen.findByTestId('at-list')).toHaveTextContent('/people-manage/userManage?gender=1&pageNum=2');
  });

  it('keeps what was typed when the user declines the same-name question', async () => {
    server.answers.set(INSERT, () => refused(300, 'Same name', 'resident.sameName', { existingIds: [1] }));
    show(EDIT_PATH);
    await fillNewResident();
    save();
    const dialog = await confirmation();
    fireEvent.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(document.querySelector('.ant-modal-confirm')).toBeNull());
    expect(requests(INSERT)).toHaveLength(1);
    expect(input('Name').value).toBe(' Chen Jianguo ');
    expect(screen.queryByTestId('at-list')).not.toBeInTheDocument();
  });

  it("edits a resident: loads ?id, keeps contact ids, sends updateUser, shows the server's refusal and keeps the input", async () => {
    server.answers.set('/getUserMessageById', (s) => {
      expect(s.query.get('id')).toBe('5');
      return okFor(
        getResident,
        residentDetail({
          id: 5,
          name: 'Liu Xiuying',
          gender: 1,
          birthDate: '1938-11-02',
          state: 'checkedIn',
          areaName: 'Building A',
          floorName: '1F',
          roomName: '101',
          bedName: '2',
          medicalHistory: ['others'],
          otherHistory: 'Asthma',
          contacts: [{ id: 77, name: 'Liu Jr', phone: '13900001001', relation: 'child' }],
          carers: [{ id: 6, name: 'Wang Fang' }],
          communityId: 8,
          communityName: 'Riverside',
        }),
      );
    });
    let refuse = true;
    server.answers.set(UPDATE, () =>
      refuse
        ? refused(400, 'Carer Wang Fang already looks after 100 residents, the maximum.', 'resident.carerFull')
        : ok(null),
    );
    show(`${EDIT_PATH}?id=5`);
    await waitFor(() => expect(input('Name').value).toBe('Liu Xiuying'));
    expect(screen.getByTestId('occupancy')).toHaveTextContent('Building A / 1F / 101 / 2');
    expect(input('Other medical history').value).toBe('Asthma');
    fireEvent.change(input('Name'), { target: { value: 'Liu Xiuying B' } });
    save();
    expect(
      await screen.findByText('Carer Wang Fang already looks after 100 residents, the maximum.'),
    ).toBeInTheDocument();
    expect(input('Name').value).toBe('Liu Xiuying B');
    expect(requests(UPDATE).map((s) => s.body)).toEqual([
      {
        id: 5,
        name: 'Liu Xiuying B',
        gender: 1,
        birthDate: '1938-11-02',
        height: 170,
        weight: 62,
        medicalHistory: ['others'],
        otherHistory: 'Asthma',
        contacts: [{ id: 77, name: 'Liu Jr', phone: '13900001001', relation: 'child' }],
        priority: false,
        remark: null,
        caregiverIds: [6],
        communityId: 8,
        confirm: false,
      },
    ]);
    refuse = false;
    save();
    expect(await screen.findByTestId('at-list')).toHaveTextContent('/people-manage/userManage?gender=1&pageNum=2');
    expect(requests(UPDATE)).toHaveLength(2);
  });

  it('says so when the address names no resident', async () => {
    show(`${EDIT_PATH}?id=abc`);
    expect(await screen.findByText('There is no such resident.')).toBeInTheDocument();
    expect(requests('/getUserMessageById')).toHaveLength(0);
  });
});
