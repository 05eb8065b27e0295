import { useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '@vigil/contract/browser';
import type { i18n as I18n } from 'i18next';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { PagedTable } from './PagedTable.tsx';

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

interface Row {
  id: number;
  name: string;
}

/** A list screen in miniature: its request, a keyword filter, and the shared table. */
const List = (props: { fetchRows: () => Promise<Row[]>; keyWord?: string }) => {
  const [keyWord, setKeyWord] = useState(props.keyWord);
  const list = useQuery({ queryKey: ['rows', keyWord], queryFn: props.fetchRows });
  return (
    <>
      <button onClick={() => void list.refetch()}>refresh</button>
      <PagedTable<Row>
        rowKey="id"
        query={list}
        filters={{ filtered: keyWord !== undefined, onClearFilters: () => setKeyWord(undefined) }}
        columns={[{ title: 'Name', dataIndex: 'name' }]}
        dataSource={list.data ?? []}
        page={{ pageNum: 1, pageSize: 10 }}
        total={list.data?.length ?? 0}
        onPage={() => undefined}
      />
    </>
  );
};

const refused = () => new ApiError(500, 'The server could not answer.', 'server_error', 200);

describe('PagedTable', () => {
  it('shows the failure with a retry instead of "no data", and the rows once a retry succeeds', async () => {
    const fetchRows = vi
      .fn<() => Promise<Row[]>>()
      .mockRejectedValueOnce(refused())
      .mockResolvedValue([{ id: 1, name: 'Zhang Wei' }]);
    render(inTestShell(i18n, <List fetchRows={fetchRows} />));
    expect(await screen.findByTestId('list-error')).toBeInTheDocument();
    expect(screen.getByText(i18n.t('list.loadFailed'))).toBeInTheDocument();
    expect(screen.getByText('The server could not answer.')).toBeInTheDocument();
    expect(screen.queryByText('No data')).toBeNull();
    fireEvent.click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('Zhang Wei')).toBeInTheDocument();
    expect(screen.queryByTestId('list-error')).toBeNull();
  });

  it('keeps the rows of an earlier answer when a refresh fails, and says they may be out of date', async () => {
    const fetchRows = vi
      .fn<() => Promise<Row[]>>()
      .mockResolvedValueOnce([{ id: 1, name: 'Zhang Wei' }])
      .mockRejectedValueOnce(refused())
      .mockResolvedValue([{ id: 1, name: 'Zhang Wei' }]);
    render(inTestShell(i18n, <List fetchRows={fetchRows} />));
    expect(await screen.findByText('Zhang Wei')).toBeInTheDocument();
    expect(screen.queryByTestId('list-stale')).toBeNull();
    fireEvent.click(screen.getByText('refresh'));
    expect(await screen.findByTestId('list-stale')).toHaveTextContent(i18n.t('list.stale'));
    expect(screen.getByText('Zhang Wei')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('list-retry'));
    await waitFor(() => expect(screen.queryByTestId('list-stale')).toBeNull());
  });

  it('shows only the spinner while the first answer loads, never "no data" under it', async () => {
    let answer: (rows: Row[]) => void = () => undefined;
    const fetchRows = () => new Promise<Row[]>((resolve) => (answer = resolve));
    render(inTestShell(i18n, <List fetchRows={fetchRows} />));
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).not.toBeNull());
    expect(screen.queryByText('No data')).toBeNull();
    answer([]);
    expect((await screen.findAllByText('No data')).length).toBeGreaterThan(0);
  });

  it('says "no match" under filters that left nothing, with a button clearing them', async () => {
    const fetchRows = vi.fn((): Promise<Row[]> => Promise.resolve([]));
    render(inTestShell(i18n, <List fetchRows={fetchRows} keyWord="nobody" />));
    expect(await screen.findByTestId('list-no-match')).toHaveTextContent(i18n.t('list.noMatch'));
    fireEvent.click(screen.getByTestId('list-clear-filters'));
    expect((await screen.findAllByText('No data')).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('list-no-match')).toBeNull();
  });
});
