import { fireEvent, render, screen, within } from '@testing-library/react';
import { Button, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { i18n as I18n } from 'i18next';
import { useState, type Key } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { restoreWindowWidth, setWindowWidth } from '../../test/window-width.ts';
import { CARD_LAYOUT_BELOW_PX } from './card-layout.ts';
import { ResponsiveTable, type CardLayout } from './ResponsiveTable.tsx';

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
afterEach(restoreWindowWidth);

interface Device {
  id: number;
  deviceId: string;
  kind: string;
  resident: string | null;
  place: string;
  online: boolean;
  subs: string[];
}

const ROWS: Device[] = [
  { id: 1, deviceId: 'SLP-01', kind: 'Sleep monitor', resident: 'Li Wei', place: '101 / A', online: true, subs: [] },
  { id: 2, deviceId: 'GW-02', kind: 'Gateway', resident: null, place: 'Hall', online: false, subs: ['DOOR-1'] },
];

const columns = (onAction: (row: Device) => void): ColumnsType<Device> => [
  { title: 'Device ID', dataIndex: 'deviceId' },
  { title: 'Type', dataIndex: 'kind' },
  { title: 'Resident', key: 'resident', render: (_, row) => row.resident ?? '—' },
  { title: 'Place', dataIndex: 'place' },
  { title: 'State', key: 'state', render: (_, row) => (row.online ? 'Online' : 'Offline') },
  {
    title: 'Actions',
    key: 'actions',
    render: (_, row) => <Button onClick={() => onAction(row)}>{`Restart ${row.deviceId}`}</Button>,
  },
];

const CARDS: CardLayout<Device> = {
  title: (row) => row.deviceId,
  state: (row) => <Tag>{row.online ? 'Online' : 'Offline'}</Tag>,
  fields: ['kind', 'resident', 'place', { key: 'note', label: 'Note', render: (row) => `#${row.id}` }],
  actions: 'actions',
};

const List = (props: {
  onAction?: (row: Device) => void;
  onOpen?: (row: Device) => void;
  onPage?: (page: number) => void;
}) => {
  const [chosen, setChosen] = useState<Key[]>([]);
  return (
    <>
      <output data-testid="chosen">{chosen.join(',')}</output>
      <ResponsiveTable<Device>
        data-testid="devices"
        rowKey="id"
        columns={columns(props.onAction ?? (() => undefined))}
        dataSource={ROWS}
        cards={CARDS}
        onRow={(row) => ({ onClick: () => props.onOpen?.(row) })}
        rowSelection={{
          selectedRowKeys: chosen,
          getCheckboxProps: (row) => ({ disabled: row.resident === null }),
          onChange: (keys) => setChosen(keys),
        }}
        expandable={{
          rowExpandable: (row) => row.subs.length > 0,
          expandedRowRender: (row) => <div data-testid={`subs-${row.deviceId}`}>{row.subs.join(', ')}</div>,
        }}
        pagination={{
          current: 1,
          pageSize: 2,
          total: 5,
          showTotal: (n) => `${n} in total`,
          onChange: (page) => props.onPage?.(page),
        }}
      />
    </>
  );
};

const cards = () => within(screen.getByTestId('devices')).queryAllByTestId('list-card');

describe('ResponsiveTable', () => {
  it('is a table from 768 px up', () => {
    setWindowWidth(1440);
    render(inTestShell(i18n, <List />));
    expect(screen.getByRole('columnheader', { name: 'Resident' })).toBeInTheDocument();
    expect(screen.getAllByRole('row').length).toBeGreaterThan(ROWS.length);
    expect(cards()).toHaveLength(0);
  });

  it('shows each row as a card below 768 px: heading and state, the columns as labelled lines, then the actions', () => {
    setWindowWidth(390);
    const onAction = vi.fn();
    render(inTestShell(i18n, <List onAction={onAction} />));
    expect(screen.queryByRole('columnheader')).toBeNull();
    expect(cards()).toHaveLength(2);
    const first = cards()[0] as HTMLElement;
    expect(first.querySelector('[data-card="title"]')).toHaveTextContent('SLP-01');
    expect(first.querySelector('[data-card="state"]')).toHaveTextContent('Online');
    const line = (field: string) => first.querySelector(`[data-field="${field}"]`);
    expect(line('kind')).toHaveTextContent('TypeSleep monitor');
    expect(line('resident')).toHaveTextContent('ResidentLi Wei');
    expect(line('place')).toHaveTextContent('Place101 / A');
    expect(line('note')).toHaveTextContent('Note#1');
    // Only the columns the cards name: the ID is the heading already.
    expect(line('deviceId')).toBeNull();
    fireEvent.click(within(first).getByText('Restart SLP-01'));
    expect(onAction).toHaveBeenCalledWith(ROWS[0]);
  });

  it('switches between the two when the window crosses 768 px', () => {
    setWindowWidth(CARD_LAYOUT_BELOW_PX);
    render(inTestShell(i18n, <List />));
    expect(cards()).toHaveLength(0);
    setWindowWidth(CARD_LAYOUT_BELOW_PX - 1);
    expect(cards()).toHaveLength(2);
    setWindowWidth(1024);
    expect(cards()).toHaveLength(0);
  });

  it('keeps paging, row clicks, selection and expanded rows on cards', () => {
    setWindowWidth(390);
    const onOpen = vi.fn();
    const onPage = vi.fn();
    render(inTestShell(i18n, <List onOpen={onOpen} onPage={onPage} />));
    expect(screen.getByText('5 in total')).toBeInTheDocument();
    fireEvent.click(screen.getByTitle('3'));
    expect(onPage).toHaveBeenCalledWith(3);

    const [first, second] = cards() as [HTMLElement, HTMLElement];
    fireEvent.click(within(first).getByText('Place'));
    expect(onOpen).toHaveBeenCalledWith(ROWS[0]);
    // An action is not a click on the card.
    fireEvent.click(within(second).getByText('Restart GW-02'));
    expect(onOpen).toHaveBeenCalledTimes(1);

    fireEvent.click(within(first).getByRole('checkbox'));
    expect(screen.getByTestId('chosen')).toHaveTextContent('1');
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(within(second).getByRole('checkbox')).toBeDisabled();

    expect(within(second).getByTestId('subs-GW-02')).toHaveTextContent('DOOR-1');
    expect(within(first).queryByTestId('subs-SLP-01')).toBeNull();
  });

  it('says so when there is nothing to show', () => {
    setWindowWidth(390);
    render(
      inTestShell(
        i18n,
        <ResponsiveTable<Device>
          data-testid="devices"
          rowKey="id"
          columns={columns(() => undefined)}
          dataSource={[]}
          cards={CARDS}
          locale={{ emptyText: 'Nothing here yet' }}
        />,
      ),
    );
    expect(screen.getByText('Nothing here yet')).toBeInTheDocument();
  });
});
