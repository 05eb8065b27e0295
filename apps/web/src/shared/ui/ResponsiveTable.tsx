import { Card, Checkbox, Empty, Flex, Pagination, Spin, Table, type PaginationProps, type TableProps } from 'antd';
import type { ColumnType, TablePaginationConfig } from 'antd/es/table';
import { isValidElement, type Key, type ReactNode } from 'react';
import { useCardLayout } from './card-layout.ts';
import './responsive-table.css';

/**
 * How a row reads as a card on a phone. The labelled lines are the table's own columns (their
 * header is the label, their cell the value), so a card says what the row says, in the same words.
 */
export interface CardLayout<T> {
  /** What or who the row is: the card's heading (a type, a resident, a device). */
  title: (row: T) => ReactNode;
  /** Beside the heading: the row's state (tags). */
  state?: (row: T) => ReactNode;
  /**
   * Labelled lines under the heading, in this order: a column by its key (or dataIndex), or a line
   * of the card's own (what a table column holds together, such as the resident and the place).
   */
  fields: readonly (string | CardField<T>)[];
  /** The column (or columns) whose cells close the card: the row's actions. */
  actions?: string | readonly string[];
}

/** A card line of its own: a label and the row's value. */
export interface CardField<T> {
  key: string;
  label: ReactNode;
  render: (row: T) => ReactNode;
}

const columnKey = <T,>(column: ColumnType<T>): string | undefined =>
  column.key !== undefined ? String(column.key) : column.dataIndex !== undefined ? String(column.dataIndex) : undefined;

const valueAt = (row: unknown, dataIndex: unknown): unknown => {
  if (dataIndex === undefined || dataIndex === null) return undefined;
  const path = (Array.isArray(dataIndex) ? dataIndex : [dataIndex]) as (string | number)[];
  return path.reduce<unknown>(
    (value, step) =>
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined,
    row,
  );
};

/** A column's cell for a row, as the table would render it (a cell's own props left out). */
export const cellOf = <T,>(column: ColumnType<T>, row: T, index: number): ReactNode => {
  const value = valueAt(row, column.dataIndex);
  if (!column.render) return value as ReactNode;
  const out: unknown = column.render(value, row, index);
  // antd allows { children, props } for cells spanning rows.
  if (out !== null && typeof out === 'object' && !isValidElement(out) && 'children' in out) {
    return (out as { children: ReactNode }).children;
  }
  return out as ReactNode;
};

const rowKeyOf = <T,>(rowKey: TableProps<T>['rowKey'], row: T, index: number): Key => {
  if (typeof rowKey === 'function') return rowKey(row, index);
  const key = valueAt(row, rowKey ?? 'key');
  return typeof key === 'string' || typeof key === 'number' || typeof key === 'bigint' ? String(key) : index;
};

/** The table's paging without what only a table has (where its pager sits). */
const pageProps = ({ position: _position, ...props }: TablePaginationConfig): PaginationProps => props;

/** The rows of a table as cards: heading and state, the chosen columns as labelled lines, actions last. */
const CardList = <T,>({ cards, testId, ...table }: TableProps<T> & { cards: CardLayout<T>; testId?: string }) => {
  const rows = [...(table.dataSource ?? [])];
  const columns = (table.columns ?? []) as ColumnType<T>[];
  const byKey = new Map(columns.flatMap((c) => (columnKey(c) === undefined ? [] : [[columnKey(c) as string, c]])));
  const fields = cards.fields.flatMap((field): CardField<T>[] => {
    if (typeof field !== 'string') return [field];
    const column = byKey.get(field);
    if (!column) return [];
    const label = typeof column.title === 'function' ? null : column.title;
    return [{ key: field, label, render: (row) => cellOf(column, row, rows.indexOf(row)) }];
  });
  const actions = (typeof cards.actions === 'string' ? [cards.actions] : (cards.actions ?? [])).flatMap((key) => {
    const column = byKey.get(key);
    return column ? [column] : [];
  });
  const selection = table.rowSelection;
  const selected = new Set((selection?.selectedRowKeys ?? []).map(String));
  const select = (key: Key, on: boolean) => {
    if (!selection?.onChange) return;
    const keys = on
      ? [...(selection.selectedRowKeys ?? []), key]
      : (selection.selectedRowKeys ?? []).filter((k) => String(k) !== String(key));
    const chosen = rows.filter((r, i) => keys.some((k) => String(k) === String(rowKeyOf(table.rowKey, r, i))));
    selection.onChange(keys, chosen, { type: 'single' });
  };
  const pagination = table.pagination;
  const loading = typeof table.loading === 'object' ? table.loading.spinning : table.loading;
  const empty = table.locale?.emptyText;

  return (
    <div data-testid={testId} className="card-list">
      <Spin spinning={loading === true}>
        {rows.length === 0 ? (
          <div className="card-list-empty">
            {empty === undefined ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : typeof empty === 'function' ? (
              empty()
            ) : (
              empty
            )}
          </div>
        ) : (
          rows.map((row, index) => {
            const key = rowKeyOf(table.rowKey, row, index);
            const onRow = table.onRow?.(row, index);
            const box = selection?.getCheckboxProps?.(row);
            const expandable = table.expandable;
            const expanded =
              expandable?.expandedRowRender && (expandable.rowExpandable?.(row) ?? true)
                ? expandable.expandedRowRender(row, index, 0, true)
                : null;
            return (
              <Card
                key={key}
                size="small"
                className="list-card"
                data-testid="list-card"
                data-row-key={String(key)}
                onClick={onRow?.onClick}
                style={onRow?.style}
              >
                <Flex justify="space-between" align="flex-start" gap={8} wrap>
                  <Flex gap={8} align="flex-start" className="list-card-title" data-card="title">
                    {selection && (
                      <Checkbox
                        checked={selected.has(String(key))}
                        disabled={box?.disabled}
                        aria-label={box?.['aria-label'] as string | undefined}
                        onClick={(event) => event.stopPropagation()}
                        onChange={(event) => select(key, event.target.checked)}
                      />
                    )}
                    <div>{cards.title(row)}</div>
                  </Flex>
                  {cards.state && (
                    <div className="list-card-state" data-card="state">
                      {cards.state(row)}
                    </div>
                  )}
                </Flex>
                {fields.length > 0 && (
                  <dl className="list-card-fields">
                    {fields.map((field) => (
                      <div key={field.key} className="list-card-field" data-field={field.key}>
                        <dt>{field.label}</dt>
                        <dd>{field.render(row)}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {expanded && <div className="list-card-expanded">{expanded}</div>}
                {actions.length > 0 && (
                  // A click on an action is not a click on the card (which may open the row).
                  <Flex
                    justify="space-between"
                    align="center"
                    wrap
                    gap={4}
                    className="list-card-actions"
                    data-card="actions"
                    onClick={(event) => event.stopPropagation()}
                  >
                    {actions.map((column, i) => (
                      <div key={i}>{cellOf(column, row, index)}</div>
                    ))}
                  </Flex>
                )}
              </Card>
            );
          })
        )}
      </Spin>
      {pagination && (
        <Flex justify="flex-end" className="card-list-pagination">
          <Pagination size="small" {...pageProps(pagination)} />
        </Flex>
      )}
    </div>
  );
};

/**
 * A table on screens from CARD_LAYOUT_BELOW_PX up, and the same rows as cards below it (issue 29,
 * point 13): on a phone a table scrolls sideways and hides what matters behind its first columns,
 * while a card shows the row's type, resident, place and state at once. Paging, the loading
 * spinner, the empty text, row clicks, selection and expanded rows work in both.
 */
export const ResponsiveTable = <T,>({ cards, ...table }: TableProps<T> & { cards: CardLayout<T> }) => {
  const asCards = useCardLayout();
  if (!asCards) return <Table<T> {...table} />;
  const testId = (table as Record<string, unknown>)['data-testid'];
  return <CardList<T> {...table} cards={cards} {...(typeof testId === 'string' ? { testId } : {})} />;
};
