import { DownOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Space, type MenuProps } from 'antd';
import { useNavigate } from 'react-router';
import { EnableToggle } from '../../shared/ui/crud.tsx';
import type { CaregiverRow } from './caregiver-model.ts';
import { EDIT_PATH } from './paths.ts';
import { useCaregiverActions } from './useCaregiverActions.ts';
import { useCaregiverTexts } from './useCaregiverTexts.ts';

/** A failed action has shown its message (useApiError); its confirmation just closes. */
const quietly = (run: Promise<unknown>) => run.catch(() => undefined);

/**
 * Edit and enable/disable in view; the rarer password reset and delete under "More", so the
 * list's columns fit beside them. Disabling, resetting and deleting each ask first.
 */
export const CaregiverRowActions = ({ row }: { row: CaregiverRow }) => {
  const { t, v } = useCaregiverTexts();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const actions = useCaregiverActions();

  const items: MenuProps['items'] = [
    { key: 'reset', label: t('list.resetPassword') },
    { key: 'delete', label: t('common.delete'), danger: true },
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'reset')
      modal.confirm({
        title: t('list.resetPassword'),
        content: t('list.resetConfirm', { name: row.name }),
        onOk: () => quietly(actions.resetPassword.mutateAsync(row)),
      });
    else
      modal.confirm({
        title: t('common.delete'),
        content: v('list.deleteConfirm', { name: row.name }),
        okButtonProps: { danger: true },
        onOk: () => quietly(actions.remove.mutateAsync(row)),
      });
  };

  return (
    <Space size="small">
      <Button
        type="link"
        size="small"
        onClick={() => void navigate(`${EDIT_PATH}?id=${row.id}`, { state: { caregiver: row } })}
      >
        {t('common.edit')}
      </Button>
      <EnableToggle
        enabled={row.enabled}
        disableConfirm={v('list.disableConfirm', { name: row.name })}
        onChange={(enable) => quietly(actions.setEnabled.mutateAsync({ row, enable }))}
      />
      <Dropdown menu={{ items, onClick: onMenu }} trigger={['click']}>
        <Button type="link" size="small" data-testid="caregiver-more">
          {t('list.more')} <DownOutlined />
        </Button>
      </Dropdown>
    </Space>
  );
};
