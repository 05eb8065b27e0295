import { bunkList, saveBedSleepSetting } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Card, Input, Select, Space } from 'antd';
import { useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { mayCall } from '../../../shared/session/may-call.ts';
import { useSession } from '../../../shared/session/session-store.ts';
import { RefusableButton } from '../../../shared/ui/Refused.tsx';
import { locationFilter, selectionPath, type Bed, type BedFilters, type PlaceSelection } from '../facility-model.ts';
import type { PlaceAction } from '../places/place-actions.ts';
import { BedEditDialog } from './BedEditDialog.tsx';
import { BedSleepDialog, isOccupied, type OccupiedBed } from './BedSleepDialog.tsx';
import { BedTable } from './BedTable.tsx';
import { BedTransfer } from './BedTransfer.tsx';

type Choice = 'yes' | 'no';
const flagOf = (choice: Choice | undefined) => (choice === undefined ? undefined : choice === 'yes');

/**
 * The beds of the selected node (or all beds): keyword, free and device filters, pagination,
 * adding beds to a room, editing and deleting beds, check-out, import and export, and the sleep
 * settings of one bed's resident or of the residents of the beds chosen (across pages).
 */
export const BedPanel = (props: {
  selection: PlaceSelection | null;
  providerId: number | undefined;
  platform: boolean;
  onAction: (action: PlaceAction) => void;
  onChanged: () => void;
}) => {
  const { t } = useTranslation('facility');
  const { message } = App.useApp();
  const [narrowing, setNarrowing] = useState<Pick<BedFilters, 'keyWord' | 'free' | 'hasDevice'>>({});
  /** Bumped to empty the filter inputs when the filters are cleared. */
  const [filterInputs, setFilterInputs] = useState(0);
  const filters: BedFilters = { ...narrowing, ...locationFilter(props.selection), providerId: props.providerId };
  // Any change of filters or place starts at page 1: a narrower list may not have the current page.
  const filterKey = JSON.stringify(filters);
  const [paging, setPaging] = useState({ key: filterKey, pageNum: 1, pageSize: 10 });
  const page = { pageNum: paging.key === filterKey ? paging.pageNum : 1, pageSize: paging.pageSize };
  const [editing, setEditing] = useState<Bed | null>(null);
  const maySetSleep = mayCall(saveBedSleepSetting, useSession().info?.role);
  /** Beds chosen for sleep settings in batch, by id; kept across pages and filters until saved. */
  const [chosen, setChosen] = useState<ReadonlyMap<number, OccupiedBed>>(new Map());
  const [sleepFor, setSleepFor] = useState<readonly OccupiedBed[] | null>(null);

  const list = useQuery({
    queryKey: ['facility', 'beds', filters, page],
    queryFn: () => api(bunkList, { ...page, ...filters }),
    placeholderData: keepPreviousData,
  });

  // A chosen bed shown again is taken as the list has it now: a resident who left drops out.
  const shown = new Map((list.data?.rows ?? []).map((b) => [b.id, b]));
  const chosenNow = [...chosen.values()].flatMap((b) => {
    const now = shown.get(b.id) ?? b;
    return isOccupied(now) ? [now] : [];
  });

  const narrow = (change: Partial<typeof narrowing>) => setNarrowing((current) => ({ ...current, ...change }));
  const selection = props.selection;
  const room = selection?.level === 'room' ? selection : null;

  return (
    <Card
      size="small"
      title={selection ? selectionPath(selection) : t('bed.allBeds')}
      extra={
        <Space wrap>
          <RefusableButton
            type="primary"
            data-testid="add-beds"
            refusal={room ? null : t('bed.chooseRoom')}
            onClick={() => room && props.onAction({ kind: 'addBeds', ...room })}
          >
            {t('bed.add')}
          </RefusableButton>
          {maySetSleep && (
            <RefusableButton
              data-testid="batch-sleep"
              refusal={chosenNow.length ? null : t('sleep.chooseBeds')}
              onClick={() => setSleepFor(chosenNow)}
            >
              {chosenNow.length ? t('sleep.batchButton', { count: chosenNow.length }) : t('settings.sleep')}
            </RefusableButton>
          )}
          <BedTransfer
            filters={filters}
            providerId={props.providerId}
            needsProvider={props.platform && props.providerId === undefined}
            onImported={props.onChanged}
          />
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 12 }} key={filterInputs}>
        <Input.Search
          data-testid="bed-search"
          style={{ width: 300 }}
          allowClear
          placeholder={t('bed.searchPlaceholder')}
          enterButton={t('common.search')}
          maxLength={64}
          onSearch={(value) => narrow({ keyWord: value.trim() || undefined })}
        />
        <Select<Choice>
          data-testid="bed-filter-free"
          aria-label={t('bed.occupancy')}
          placeholder={t('bed.occupancy')}
          allowClear
          style={{ minWidth: 140 }}
          options={[
            { value: 'yes', label: t('bed.onlyFree') },
            { value: 'no', label: t('bed.onlyOccupied') },
          ]}
          onChange={(choice?: Choice) => narrow({ free: flagOf(choice) })}
        />
        <Select<Choice>
          data-testid="bed-filter-device"
          aria-label={t('bed.deviceFilter')}
          placeholder={t('bed.deviceFilter')}
          allowClear
          style={{ minWidth: 160 }}
          options={[
            { value: 'yes', label: t('bed.withDevice') },
            { value: 'no', label: t('bed.withoutDevice') },
          ]}
          onChange={(choice?: Choice) => narrow({ hasDevice: flagOf(choice) })}
        />
      </Space>
      <BedTable
        beds={list.data?.rows ?? []}
        total={list.data?.total ?? 0}
        query={list}
        filters={{
          filtered: Object.values(narrowing).some((value) => value !== undefined),
          onClearFilters: () => {
            setFilterInputs((n) => n + 1);
            setNarrowing({});
          },
        }}
        page={page}
        showProvider={props.platform}
        onPage={(pageNum, pageSize) => setPaging({ key: filterKey, pageNum, pageSize })}
        onEdit={setEditing}
        onChanged={props.onChanged}
        maySetSleep={maySetSleep}
        onSleep={setSleepFor}
        {...(maySetSleep
          ? {
              rowSelection: {
                selectedRowKeys: chosenNow.map((b) => b.id),
                preserveSelectedRowKeys: true,
                getCheckboxProps: (bed: Bed) => ({ disabled: !isOccupied(bed) }),
                onChange: (keys: Key[], rows: Bed[]) => {
                  const seen = new Map(rows.filter(isOccupied).map((b) => [b.id, b]));
                  setChosen(
                    new Map(
                      keys.flatMap((key) => {
                        const bed = seen.get(Number(key)) ?? chosen.get(Number(key));
                        return bed ? [[bed.id, bed] as const] : [];
                      }),
                    ),
                  );
                },
              },
            }
          : {})}
      />
      {sleepFor && (
        <BedSleepDialog
          beds={sleepFor}
          onClose={() => setSleepFor(null)}
          onSaved={(count) => {
            setSleepFor(null);
            setChosen(new Map());
            void message.success(t('sleep.savedCount', { count }));
            // The beds' mattress may have changed with the settings.
            props.onChanged();
          }}
        />
      )}
      {editing && (
        <BedEditDialog
          bed={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void message.success(t('feedback.saved'));
            props.onChanged();
          }}
        />
      )}
    </Card>
  );
};
