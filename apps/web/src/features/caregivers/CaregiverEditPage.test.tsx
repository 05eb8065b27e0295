import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';

import CaregiverEditPage from './CaregiverEditPage.tsx';
import { EDIT_PATH, LIST_PATH } from './paths.ts';
import { caregiverRow, installFakeServer, residentRow } from './test-support.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { sessionInfo } from '../../test/session-info.ts';

const server = installFakeServer();

const INSERT = '/nursing/insertNursing';
const RESIDENTS = '/userManagement/userList';

// antd's motion and the picker's search delay are slow in jsdom on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  server.reset();
  // The server's id filter: only the caregiver asked for.
  server.routes.set('/nursing/queryNursingList', (body) => {
    const rows = [caregiverRow({ id: 4, name: 'Other' }), caregiverRow()].filter((r) => r.id === body.id);
    return { data: { rows, total: rows.length, pageNum: 1, pageSize: 1 } };
  });
  server.routes.set(RESIDENTS, (body) => ({
    data: {
      rows:
        body.keyWord === 'Sun'
          ? [residentRow({ id: 21, name: 'Sun Mei', areaName: 'East', floorName: '2F', roomName: '201', bedName: 'A' })]
          : [],
      total: body.keyWord === 'Sun' ? 1 : 0,
      pageNum: 1,
      pageSize: 50,
    },
  }));
});

/** The page at `search`, with a stand-in list page to see where saving leads. */
const open = (search = '') =>
  render(
    inTestShell(
      i18n,
      <Routes>
        <Route path={EDIT_PATH} element={<CaregiverEditPage />} />
        <Route path={LIST_PATH} element={<div data-testid="list-page" />} />
      </Routes>,
      `${EDIT_PATH}${search}`,
    ),
  );
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByTestId('caregiver-save'));
const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
/** Validation messages appear after antd's motion, which jsdom runs slowly. */
const expectErrors = (expected: string[]) => waitFor(() => expect(errors()).toEqual(expected));

describe('CaregiverEditPage (domestic)', () => {
  it('says what is missing or malformed before sending anything', async () => {
    open();
    expect(await screen.findByText('New caregiver')).toBeInTheDocument();
    save();
    await expectErrors(['Required', 'Required']);

    type('Caregiver name', 'Wang Fang');
    type('Mobile number', '1381234567');
    type('App login account', 'wf_01');
    type('Remark', 'tab\there is fine in a remark');
    type('Job', 'night\tnurse');
    save();
    await expectErrors([
      'Not a valid mobile number: 11 digits for mainland China, otherwise + and the country code.',
      '6 to 64 letters or digits',
      'Remove the control characters (such as tabs).',
    ]);
    expect(server.bodiesTo(INSERT)).toEqual([]);
  });

  it('creates the caregiver and shows the app login and generated password once', async () => {
    server.routes.set(INSERT, () => ({ data: { id: 9, userName: '13812345678', initialPassword: 'Pw#8k2LmQz' } }));
    open();
    await screen.findByText('New caregiver');
    type('Caregiver name', ' Wang Fang ');
    type('Mobile number', '138 1234 5678');
    // The login defaults to the phone, as the server stores it.
    expect(await screen.findByText('Leave empty to sign in with the mobile number: 13812345678')).toBeInTheDocument();
    type('Job', 'Nursing assistant');
    fireEvent.click(screen.getByText('Lead caregiver'));
    save();
    await waitFor(() =>
      expect(server.bodiesTo(INSERT)).toEqual([
        { name: 'Wang Fang', phone: '13812345678', job: 'Nursing assistant', level: 'lead', residentIds: [] },
      ]),
    );
    expect((await screen.findByTestId('app-password')).textContent).toBe('Pw#8k2LmQz');
    expect(within(screen.getByTestId('app-credentials')).getByText('13812345678')).toBeInTheDocument();
    expect(await screen.findByTestId('list-page')).toBeInTheDocument();
  });

  it('links residents found by searching the resident list', async () => {
    server.routes.set(INSERT, () => ({ data: { id: 9, userName: 'wangfang01', initialPassword: 'Pw#8k2LmQz' } }));
    open();
    await screen.findByText('New caregiver');
    type('Caregiver name', 'Wang Fang');
    type('Mobile number', '13812345678');
    type('App login account', 'wangfang01');
    const picker = screen.getByLabelText('Linked residents');
    fireEvent.mouseDown(picker);
    fireEvent.change(picker, { target: { value: 'Sun' } });
    await waitFor(() =>
      expect(server.bodiesTo(RESIDENTS).at(-1)).toEqual({ pageNum: 1, pageSize: 50, keyWord: 'Sun' }),
    );
    fireEvent.click(await screen.findByText('East / 2F / 201 / A'));
    save();
    await waitFor(() =>
      expect(server.bodiesTo(INSERT)).toEqual([
        { name: 'Wang Fang', phone: '13812345678', level: 'normal', residentIds: [21], userName: 'wangfang01' },
      ]),
    );
  });

  it("keeps everything typed on a refusal and puts the server's message on the field", async () => {
    server.routes.set(INSERT, () => ({
      status: 400,
      msg: 'A caregiver with this phone number already exists.',
      msgKey: 'caregiver.phoneExists',
      // The server names the field a refusal is about (MESSAGE_FIELDS).
      field: 'phone',
    }));
    open();
    await screen.findByText('New caregiver');
    type('Caregiver name', 'Wang Fang');
    type('Mobile number', '13812345678');
    type('Remark', 'Weekend shifts');
    save();
    await expectErrors(['A caregiver with this phone number already exists.']);
    // On the field only, not again in a toast, and nothing moved.
    expect(document.querySelector('.ant-message')?.textContent ?? '').not.toContain('already exists');
    expect(screen.getByLabelText('Caregiver name')).toHaveValue('Wang Fang');
    expect(screen.getByLabelText('Mobile number')).toHaveValue('13812345678');
    expect(screen.getByLabelText('Remark')).toHaveValue('Weekend shifts');
    expect(screen.queryByTestId('list-page')).not.toBeInTheDocument();
  });

  it('edits a caregiver opened by id, sending every field and replacing the residents', async () => {
    open('?id=5');
    await waitFor(() => expect(screen.getByLabelText('Caregiver name')).toHaveValue('Wang Fang'));
    expect(server.bodiesTo('/nursing/queryNursingList')).toEqual([{ id: 5, pageSize: 1 }]);
    expect(screen.getByDisplayValue('wangfang01')).toBeDisabled();
    expect(screen.getByText('Li Hua')).toBeInTheDocument();
    type('Job', '');
    type('Mobile number', '+44 7700 900123');
    save();
    await waitFor(() =>
      expect(server.bodiesTo('/nursing/operate')).toEqual([
        {
          id: 5,
          type: 'edit',
          name: 'Wang Fang',
          phone: '+447700900123',
          job: null,
          level: 'lead',
          residentIds: [11, 12],
          remark: null,
        },
      ]),
    );
    expect(await screen.findByTestId('list-page')).toBeInTheDocument();
  });

  it('says so when the caregiver to edit is not visible', async () => {
    open('?id=99');
    expect(
      await screen.findByText('This caregiver does not exist or is no longer visible to you.'),
    ).toBeInTheDocument();
  });

  it('shows the app download QR code', async () => {
    open();
    expect(await screen.findByTestId('app-qr')).toBeInTheDocument();
  });
});

describe('CaregiverEditPage (overseas)', () => {
  // The server's overseas edition (decision 0033).
  beforeEach(() => sessionStore.setInfo(sessionInfo({ role: 'TWO_ROLE', providerRole: 'TWO_ROLE', abroad: true })));
  afterEach(() => sessionStore.reset());

  it('asks for the country code and the number, and sends the international number', async () => {
    server.routes.set(INSERT, () => ({ data: { id: 9, userName: '+447700900123', initialPassword: 'Pw#8k2LmQz' } }));
    open();
    expect(await screen.findByText('New care staff member')).toBeInTheDocument();
    expect(screen.getByTestId('app-hint-overseas').textContent).toContain('App Store or Google Play');
    expect(screen.queryByTestId('app-qr')).not.toBeInTheDocument();

    type('Full name', 'Emma Stone');
    fireEvent.mouseDown(screen.getByLabelText('Country code'));
    fireEvent.change(screen.getByLabelText('Country code'), { target: { value: 'United Kingdom' } });
    fireEvent.click(await screen.findByText('+44 United Kingdom'));
    type('Mobile number (international)', '123');
    save();
    await expectErrors(['Enter a valid mobile number: country code and number, 7 to 15 digits in all']);
    type('Mobile number (international)', '07700 900123');
    expect(await screen.findByText('Leave empty to sign in with the mobile number: +447700900123')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Senior carer'));
    save();
    await waitFor(() =>
      expect(server.bodiesTo(INSERT)).toEqual([
        { name: 'Emma Stone', phone: '+447700900123', level: 'lead', residentIds: [] },
      ]),
    );
  });

  it('splits a stored number back into code and number when editing', async () => {
    server.routes.set('/nursing/queryNursingList', () => ({
      data: { rows: [caregiverRow({ phone: '+420601234567' })], total: 1, pageNum: 1, pageSize: 1000 },
    }));
    open('?id=5');
    await waitFor(() => expect(screen.getByLabelText('Mobile number (international)')).toHaveValue('601234567'));
    expect(screen.getByTestId('country-code').textContent).toContain('+420');
  });
});
