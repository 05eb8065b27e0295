import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Empty, Tree, Typography, type MenuProps } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AreaNode, PlaceSelection } from '../facility-model.ts';
import { refusedLabel } from '../../../shared/ui/Refused.tsx';
import type { PlaceAction } from './place-actions.ts';
import { deleteRefusal } from './place-refusals.ts';
import { selectionsOf } from './tree-model.ts';

interface Counted {
  name: string;
  bedCount: number;
  occupiedCount: number;
}

interface NodeAction {
  key: string;
  action: PlaceAction;
  danger?: boolean;
  /** Text key of the reason the server would refuse it: the entry is disabled and says why. */
  refusal?: string | null;
}

/** The actions of a node's menu, by level; a delete the server would refuse is disabled with its reason. */
const actionsOf = (selection: PlaceSelection): NodeAction[] => {
  const refusal = deleteRefusal(selection);
  if (selection.level === 'area') {
    const { area } = selection;
    return [
      { key: 'addFloor', action: { kind: 'addFloor', area } },
      { key: 'editArea', action: { kind: 'editArea', area } },
      { key: 'deleteArea', action: { kind: 'deleteArea', area }, danger: true, refusal },
    ];
  }
  if (selection.level === 'floor') {
    const { area, floor } = selection;
    return [
      { key: 'addRooms', action: { kind: 'addRooms', area, floor } },
      { key: 'editFloor', action: { kind: 'editFloor', area, floor } },
      { key: 'deleteFloor', action: { kind: 'deleteFloor', area, floor }, danger: true, refusal },
    ];
  }
  const { area, floor, room } = selection;
  return [
    { key: 'addBeds', action: { kind: 'addBeds', area, floor, room } },
    { key: 'editRoom', action: { kind: 'editRoom', area, floor, room } },
    { key: 'deleteRoom', action: { kind: 'deleteRoom', area, floor, room }, danger: true, refusal },
  ];
};

export interface FacilityTreeProps {
  areas: readonly AreaNode[];
  selectedKey: string | null;
  /** Platform viewers see each area's provider. */
  showProvider: boolean;
  onSelect: (key: string | null) => void;
  onAction: (action: PlaceAction) => void;
}

/** The facility tree (area/building → floor/unit → room) with bed counts and a menu on every node. */
export const FacilityTree = ({ areas, selectedKey, showProvider, onSelect, onAction }: FacilityTreeProps) => {
  const { t } = useTranslation('facility');
  const byKey = useMemo(() => selectionsOf(areas), [areas]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const known = useRef(new Set<string>());

  // Areas and floors open the first time they appear (new ones too); what the user closed stays closed.
  useEffect(() => {
    const fresh = [...byKey.keys()].filter((k) => !k.startsWith('room:') && !known.current.has(k));
    for (const k of byKey.keys()) known.current.add(k);
    if (fresh.length) setExpanded((keys) => [...keys, ...fresh]);
  }, [byKey]);

  const title = (key: string, node: Counted, extra?: string): ReactNode => {
    const selection = byKey.get(key);
    const items: MenuProps['items'] = selection
      ? actionsOf(selection).map((a) => ({
          key: a.key,
          label: a.refusal ? refusedLabel(t(`tree.${a.key}`), t(a.refusal)) : t(`tree.${a.key}`),
          danger: a.danger,
          disabled: Boolean(a.refusal),
        }))
      : [];
    return (
      <span className="facility-tree-node" data-testid={`node-${key}`}>
        <span>{node.name}</span>
        {extra && <Typography.Text type="secondary"> · {extra}</Typography.Text>}
        <Typography.Text type="secondary" title={t('tree.countsHint')}>
          {' '}
          ({node.occupiedCount}/{node.bedCount})
        </Typography.Text>
        <Dropdown
          trigger={['click']}
          // The menu sits inside the tree node in React's tree: a click on it (a disabled entry too) must not select the node.
          popupRender={(menu) => (
            <div data-testid={`menu-popup-${key}`} onClick={(e) => e.stopPropagation()}>
              {menu}
            </div>
          )}
          menu={{
            items,
            onClick: ({ key: actionKey, domEvent }) => {
              domEvent.stopPropagation();
              const chosen = selection && actionsOf(selection).find((a) => a.key === actionKey);
              if (chosen && !chosen.refusal) onAction(chosen.action);
            },
          }}
        >
          <Button
            type="text"
            size="small"
            icon={<MoreOutlined />}
            aria-label={t('tree.menu', { name: node.name })}
            data-testid={`menu-${key}`}
            onClick={(e) => e.stopPropagation()}
          />
        </Dropdown>
      </span>
    );
  };

  const treeData: DataNode[] = areas.map((area) => ({
    key: `area:${area.id}`,
    title: title(`area:${area.id}`, area, showProvider ? area.providerName : undefined),
    children: area.floors.map((floor) => ({
      key: `floor:${floor.id}`,
      title: title(`floor:${floor.id}`, floor),
      children: floor.rooms.map((room) => ({
        key: `room:${room.id}`,
        title: title(`room:${room.id}`, room),
        isLeaf: true,
      })),
    })),
  }));

  if (!areas.length) return <Empty description={t('tree.empty')} />;
  return (
    <Tree
      blockNode
      showLine
      data-testid="facility-tree"
      treeData={treeData}
      expandedKeys={expanded}
      onExpand={(keys) => setExpanded(keys.map(String))}
      selectedKeys={selectedKey ? [selectedKey] : []}
      onSelect={(keys) => onSelect(keys[0] === undefined ? null : String(keys[0]))}
    />
  );
};
