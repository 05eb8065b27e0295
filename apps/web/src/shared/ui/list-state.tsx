import { Alert, Button, Empty, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client.ts';

/** What a list needs to know of its request (a react-query result fits). */
export interface ListQuery {
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  data: unknown;
  refetch: () => unknown;
}

/** Whether the list is narrowed, and how to drop every filter, so an empty answer reads "no match". */
export interface ListFilters {
  filtered: boolean;
  onClearFilters?: () => void;
}

/** A failed request's message for the screen: the server's localised one, else the fallback (401: the login takes over). */
export const errorMessageOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.httpStatus !== 401 ? error.message : fallback;

/** A list whose request failed and has nothing to show: why, and a retry. */
export const ListError = ({ query }: { query: ListQuery }) => {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      data-testid="list-error"
      title={t('list.loadFailed')}
      subTitle={errorMessageOf(query.error, t('common.unknownError'))}
      extra={
        <Button type="primary" data-testid="list-retry" onClick={() => void query.refetch()}>
          {t('list.retry')}
        </Button>
      }
    />
  );
};

/** Rows shown from an earlier answer because the refresh failed: says so, with a retry. */
export const StaleNotice = ({ query }: { query: ListQuery }) => {
  const { t } = useTranslation();
  if (!query.isError || query.data === undefined) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="list-stale"
      style={{ marginBottom: 12 }}
      title={t('list.stale')}
      description={errorMessageOf(query.error, t('common.unknownError'))}
      action={
        <Button size="small" data-testid="list-retry" onClick={() => void query.refetch()}>
          {t('list.retry')}
        </Button>
      }
    />
  );
};

/** "No match" under filters that left nothing, with a button dropping them. */
export const NoMatch = ({ onClearFilters }: { onClearFilters?: () => void }) => {
  const { t } = useTranslation();
  return (
    <Empty data-testid="list-no-match" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('list.noMatch')}>
      {onClearFilters && (
        <Button data-testid="list-clear-filters" onClick={onClearFilters}>
          {t('list.clearFilters')}
        </Button>
      )}
    </Empty>
  );
};

/**
 * What an empty list shows: nothing under the spinner while the first answer loads, the failure
 * with a retry, "no match" with "clear filters" when filters left nothing, else the usual "no data".
 */
export const listEmptyText = (query: ListQuery | undefined, filters?: ListFilters): ReactNode | undefined => {
  if (!query) return filters?.filtered ? <NoMatch onClearFilters={filters.onClearFilters} /> : undefined;
  if (query.isFetching && (query.data === undefined || query.isError)) return <span />;
  if (query.isError && query.data === undefined) return <ListError query={query} />;
  if (filters?.filtered) return <NoMatch onClearFilters={filters.onClearFilters} />;
  return undefined;
};
