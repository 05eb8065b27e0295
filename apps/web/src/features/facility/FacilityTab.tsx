import { getAreaWithRoomList } from '@vigil/contract/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Row, Select, Space, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { ListError, StaleNotice } from '../../shared/ui/list-state.tsx';
import { AddBedsDialog } from './beds/AddBedsDialog.tsx';
import { BedPanel } from './beds/BedPanel.tsx';
import { BedSummary } from './beds/BedSummary.tsx';
import { RoomDevices } from './beds/RoomDevices.tsx';
import { AreaDialog } from './places/AreaDialog.tsx';
import { FacilityTree } from './places/FacilityTree.tsx';
import type { PlaceAction, PlaceDialog } from './places/place-actions.ts';
import { RoomDialog } from './places/RoomDialog.tsx';
import { selectionsOf } from './places/tree-model.ts';
import { usePlaceDelete } from './places/usePlaceDelete.ts';
import { useProviderOptions } from './useFacilityAccess.ts';

/** The "Addresses and beds" tab: bed counts, the facility tree on the left, the beds of the chosen node on the right. */
export const FacilityTab = ({ platform }: { platform: boolean }) => {
  const { t } = useTranslation('facility');
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [providerId, setProviderId] = useState<number | undefined>(undefined);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [dialog, setDialog] = useState<PlaceDialog | null>(null);
  const providers = useProviderOptions(platform);

  const tree = useQuery({
    queryKey: ['facility', 'tree', providerId],
    queryFn: () => api(getAreaWithRoomList, { providerId }),
  });
  const areas = useMemo(() => tree.data ?? [], [tree.data]);
  const selection = useMemo(
    () => (selectedKey ? (selectionsOf(areas).get(selectedKey) ?? null) : null),
    [areas, selectedKey],
  );

  // Every change moves counts in the tree, the summary and the list, so all facility queries refresh.
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['facility'] });
  const confirmDelete = usePlaceDelete(() => {
    void message.success(t('feedback.deleted'));
    refresh();
  });
  const act = (action: PlaceAction) => {
    if (action.kind === 'deleteArea' || action.kind === 'deleteFloor' || action.kind === 'deleteRoom')
      confirmDelete(action);
    else setDialog(action);
  };
  const saved = () => {
    setDialog(null);
    void message.success(t('feedback.saved'));
    refresh();
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {platform && (
        <Select<number>
          data-testid="provider-filter"
          aria-label={t('field.provider')}
          placeholder={t('field.allProviders')}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 240 }}
          loading={providers.isFetching}
          options={providers.data ?? []}
          onChange={(id?: number) => {
            setProviderId(id);
            setSelectedKey(null);
          }}
        />
      )}
      <BedSummary providerId={providerId} />
      <Row gutter={16}>
        <Col xs={24} lg={7} xxl={5}>
          <Card
            size="small"
            title={t('tree.title')}
            extra={
              <Button size="small" type="primary" data-testid="add-area" onClick={() => act({ kind: 'addArea' })}>
                {t('tree.addArea')}
              </Button>
            }
            style={{ marginBottom: 16 }}
          >
            <StaleNotice query={tree} />
            {tree.isLoading ? (
              <Spin />
            ) : tree.isError && !tree.data ? (
              <ListError query={tree} />
            ) : (
              <FacilityTree
                areas={areas}
                selectedKey={selection ? selectedKey : null}
                showProvider={platform && providerId === undefined}
                onSelect={setSelectedKey}
                onAction={act}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={17} xxl={19}>
          <BedPanel
            selection={selection}
            providerId={providerId}
            platform={platform}
            onAction={act}
            onChanged={refresh}
          />
          {selection?.level === 'room' && <RoomDevices roomId={selection.room.id} />}
        </Col>
      </Row>
      {dialog?.kind === 'addBeds' && <AddBedsDialog mode={dialog} onClose={() => setDialog(null)} onSaved={saved} />}
      {(dialog?.kind === 'addRooms' || dialog?.kind === 'editRoom') && (
        <RoomDialog mode={dialog} onClose={() => setDialog(null)} onSaved={saved} />
      )}
      {(dialog?.kind === 'addArea' ||
        dialog?.kind === 'addFloor' ||
        dialog?.kind === 'editArea' ||
        dialog?.kind === 'editFloor') && (
        <AreaDialog
          mode={dialog}
          platform={platform}
          providerId={providerId}
          onClose={() => setDialog(null)}
          onSaved={saved}
        />
      )}
    </Space>
  );
};
