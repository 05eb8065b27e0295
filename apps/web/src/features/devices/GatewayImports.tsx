import { gatewayExcelModel, heHostBatchAdd, heInfraredBatchAdd } from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../shared/ui/ImportDialog.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';

type Sheet = 'host' | 'infrared';

/**
 * Spreadsheet imports of the gateway page: hosts (into the provider filtered on; platform
 * administrators pick one first) and infrared detectors paired to hosts named in the sheet.
 */
export const GatewayImports = (props: { providerId?: number; needsProvider: boolean }) => {
  const { t, i18n } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<Sheet | null>(null);
  const blocked = props.needsProvider && props.providerId === undefined;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['devices'] });
  const close = () => setOpen(null);
  // Its own Space: the toolbar's Space would put a fragment's buttons in one item, without a gap.
  return (
    <Space wrap>
      <RefusableButton
        refusal={blocked ? t('import.chooseProviderFirst') : null}
        onClick={() => setOpen('host')}
        data-testid="host-import"
      >
        {t('import.hosts')}
      </RefusableButton>
      <Button onClick={() => setOpen('infrared')} data-testid="infrared-import">
        {t('import.infrared')}
      </Button>
      {open === 'host' && (
        <ImportDialog
          open
          title={t('import.hosts')}
          template={gatewayExcelModel}
          templateInput={{ kind: 'host', language: i18n.language }}
          templateName={t('file.hostTemplate')}
          importCall={heHostBatchAdd}
          extraFields={props.providerId === undefined ? undefined : { providerId: String(props.providerId) }}
          onClose={close}
          onImported={refresh}
        />
      )}
      {open === 'infrared' && (
        <ImportDialog
          open
          title={t('import.infrared')}
          template={gatewayExcelModel}
          templateInput={{ kind: 'infrared', language: i18n.language }}
          templateName={t('file.infraredTemplate')}
          importCall={heInfraredBatchAdd}
          onClose={close}
          onImported={refresh}
        />
      )}
    </Space>
  );
};
