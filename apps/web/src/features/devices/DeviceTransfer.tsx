import { deviceBatchAdd, deviceExcelModel, deviceExportData } from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../shared/ui/ExportButton.tsx';
import { ImportDialog } from '../../shared/ui/ImportDialog.tsx';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import type { DeviceFilters, DeviceGroup } from './device-model.ts';

/**
 * Batch import of devices from a spreadsheet and export of the list as filtered (without paging).
 * Imported devices go to the provider filtered on; platform administrators, who see every
 * provider, must pick one first.
 */
export const DeviceTransfer = (props: {
  filters: DeviceFilters & { kind: DeviceGroup };
  providerId?: number;
  needsProvider: boolean;
}) => {
  const { t, i18n } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);
  const blocked = props.needsProvider && props.providerId === undefined;
  // Its own Space: the toolbar's Space would put a fragment's buttons in one item, without a gap.
  return (
    <Space wrap>
      <RefusableButton
        refusal={blocked ? t('import.chooseProviderFirst') : null}
        onClick={() => setImporting(true)}
        data-testid="device-import"
      >
        {t('transfer.import')}
      </RefusableButton>
      <ExportButton call={deviceExportData} input={props.filters} filename={t('file.deviceExport')} />
      {importing && (
        <ImportDialog
          open
          title={t('import.devices')}
          template={deviceExcelModel}
          templateInput={{ language: i18n.language }}
          templateName={t('file.deviceTemplate')}
          importCall={deviceBatchAdd}
          extraFields={props.providerId === undefined ? undefined : { providerId: String(props.providerId) }}
          onClose={() => setImporting(false)}
          onImported={() => void queryClient.invalidateQueries({ queryKey: ['devices'] })}
        />
      )}
    </Space>
  );
};
