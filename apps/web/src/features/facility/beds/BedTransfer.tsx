import { bunkExcelModel, bunkExportData, bunkImportData } from '@vigil/contract/browser';
import { Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../../shared/ui/ExportButton.tsx';
import { ImportDialog } from '../../../shared/ui/ImportDialog.tsx';
import { RefusableButton } from '../../../shared/ui/Refused.tsx';
import type { BedFilters } from '../facility-model.ts';

/**
 * Batch import of beds (areas, floors and rooms found by name or created) and export of the
 * list as filtered now, without paging.
 */
export const BedTransfer = (props: {
  filters: BedFilters;
  providerId: number | undefined;
  /** A platform viewer imports into one provider, chosen in the provider filter first. */
  needsProvider: boolean;
  onImported: () => void;
}) => {
  const { t, i18n } = useTranslation('facility');
  const [importing, setImporting] = useState(false);
  return (
    <Space wrap>
      <RefusableButton
        data-testid="bed-import"
        refusal={props.needsProvider ? t('bed.importChooseProvider') : null}
        onClick={() => setImporting(true)}
      >
        {t('transfer.import')}
      </RefusableButton>
      <ExportButton call={bunkExportData} input={props.filters} filename={t('bed.exportFile')} />
      <ImportDialog
        open={importing}
        title={t('bed.importTitle')}
        template={bunkExcelModel}
        templateInput={{ language: i18n.language }}
        templateName={t('bed.templateFile')}
        importCall={bunkImportData}
        extraFields={props.providerId === undefined ? undefined : { providerId: String(props.providerId) }}
        onClose={() => setImporting(false)}
        onImported={props.onImported}
      />
    </Space>
  );
};
