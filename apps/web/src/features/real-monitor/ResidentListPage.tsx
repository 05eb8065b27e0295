import { focusUsers, monitorUserList } from '@vigil/contract/browser';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../shared/api/client.ts';
import { useLiveResidents } from '../../shared/live/live-vitals.tsx';
import { callKey, useCall } from '../../shared/api/use-call.ts';
import { residentPath } from './live-model.ts';
import { listRequest, readListView, writeListView, type MonitorListView } from './list-view.ts';
import { LiveResidentTable } from './LiveResidentTable.tsx';
import { ResidentListFilters } from './ResidentListFilters.tsx';
import { useFocusToggle } from './useFocusToggle.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/**
 * All residents (`/realMonitor/residentList`): the checked-in residents with their live state by
 * area, room and bed, found by key word, state and area; the rows follow the live socket. A star
 * makes a resident a focus resident (the cards of /realMonitor/index); a row opens the resident.
 */
const ResidentListPage = () => {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readListView(params), [params]);
  const show = (next: MonitorListView) => setParams(writeListView(next));

  const list = useQuery({
    queryKey: callKey(monitorUserList, view),
    queryFn: () => api(monitorUserList, listRequest(view)),
    placeholderData: keepPreviousData,
  });
  const focus = useCall(focusUsers, {});
  const rows = useLiveResidents(list.data?.rows, list.dataUpdatedAt);
  const { toggle, changing } = useFocusToggle(focus.data?.rows.length);
  const filtered = view.keyWord !== undefined || view.state !== undefined || view.areaId !== undefined;

  return (
    <div data-testid="resident-list">
      <ScreenTitle route="residentList" />
      <ResidentListFilters view={view} onChange={(change) => show({ ...view, ...change, pageNum: 1 })} />
      <LiveResidentTable
        rows={rows}
        total={list.data?.total ?? 0}
        page={view}
        onPage={(page) => show({ ...view, ...page })}
        query={list}
        filtered={filtered}
        onClearFilters={() => show({ pageNum: 1, pageSize: view.pageSize })}
        changingFocus={changing}
        onFocus={(row) => toggle({ userId: row.userId, focus: !row.focus })}
        onOpen={(row) => void navigate(residentPath(row.userId))}
      />
    </div>
  );
};

export default ResidentListPage;
