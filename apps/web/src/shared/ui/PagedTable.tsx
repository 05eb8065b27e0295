import { Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ListPage {
  pageNum: number;
  pageSize: number;
}

/**
 * A server-paged list: the page the list call was asked for, its total, "N in total" and a page
 * size changer (a new size starts again at page 1); wide tables scroll sideways instead of
 * squeezing their columns.
 */
export const PagedTable = <T extends object>({
  page,
  total,
  onPage,
  pageSizeOptions,
  ...table
}: Omit<TableProps<T>, 'pagination'> & {
  page: ListPage;
  total: number;
  onPage: (page: ListPage) => void;
  pageSizeOptions?: number[];
}) => {
  const { t } = useTranslation();
  return (
    <Table<T>
      scroll={{ x: 'max-content' }}
      {...table}
      pagination={{
        current: page.pageNum,
        pageSize: page.pageSize,
        total,
        showSizeChanger: true,
        ...(pageSizeOptions ? { pageSizeOptions } : {}),
        showTotal: (n) => t('common.total', { total: n }),
        onChange: (pageNum, pageSize) => onPage({ pageNum: pageSize === page.pageSize ? pageNum : 1, pageSize }),
      }}
    />
  );
};
