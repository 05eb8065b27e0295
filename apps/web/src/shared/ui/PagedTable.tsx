import { Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { StaleNotice, listEmptyText, type ListFilters, type ListQuery } from './list-state.tsx';
import { ResponsiveTable, type CardLayout } from './ResponsiveTable.tsx';

export interface ListPage {
  pageNum: number;
  pageSize: number;
}

/**
 * A server-paged list: the page the list call was asked for, its total, "N in total" and a page
 * size changer (a new size starts again at page 1); wide tables scroll sideways instead of
 * squeezing their columns. Given its `query`, it shows only the spinner during the first load, a
 * failure with a retry instead of "no data", and marks rows kept from before a failed refresh;
 * given `filters`, an empty answer reads "no match" with a button clearing them. Given `cards`, its
 * rows are cards on a phone (ResponsiveTable).
 */
export const PagedTable = <T extends object>({
  page,
  total,
  onPage,
  pageSizeOptions,
  query,
  filters,
  cards,
  ...table
}: Omit<TableProps<T>, 'pagination'> & {
  page: ListPage;
  total: number;
  onPage: (page: ListPage) => void;
  pageSizeOptions?: number[];
  query?: ListQuery;
  filters?: ListFilters;
  cards?: CardLayout<T>;
}) => {
  const { t } = useTranslation();
  const emptyText = listEmptyText(query, filters);
  const props: TableProps<T> = {
    scroll: { x: 'max-content' },
    loading: query?.isFetching,
    ...table,
    locale: { ...table.locale, ...(emptyText === undefined ? {} : { emptyText }) },
    pagination: {
      current: page.pageNum,
      pageSize: page.pageSize,
      total,
      showSizeChanger: true,
      ...(pageSizeOptions ? { pageSizeOptions } : {}),
      showTotal: (n) => t('common.total', { total: n }),
      onChange: (pageNum, pageSize) => onPage({ pageNum: pageSize === page.pageSize ? pageNum : 1, pageSize }),
    },
  };
  return (
    <>
      {query && <StaleNotice query={query} />}
      {cards ? <ResponsiveTable<T> {...props} cards={cards} /> : <Table<T> {...props} />}
    </>
  );
};
