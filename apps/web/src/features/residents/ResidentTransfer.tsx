import { residentBatchAdd, residentExcelModel, residentExportData } from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../shared/ui/ExportButton.tsx';
import { ImportDialog } from '../../shared/ui/ImportDialog.tsx';
import type { ResidentFilters } from './list-params.ts';

/**
 * Batch import (rows naming a bed are checked in to it) and export of the residents matching the
 * list's current filters, without paging.
 */
export const ResidentTransfer = ({ filters }: { filters: ResidentFilters }) => {
  const { t } = useTranslation('residents');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);

  return (
    <>
      <Button data-testid="resident-import" onClick={() => setImporting(true)}>
        {t('transfer.import')}
      </Button>
      <ExportButton call={residentExportData} input={filters} filename={t('file.export')} />
      {/* Mounted only while open, so a second import starts clean. */}
      {importing && (
        <ImportDialog
          open
          title={t('import.title')}
          template={residentExcelModel}
          templateInput={{}}
          templateName={t('file.template')}
          importCall={residentBatchAdd}
          onClose={() => setImporting(false)}
          onImported={(result) => {
            void queryClient.invalidateQueries({ queryKey: ['residents'] });
            if (result.checkedIn > 0) void message.success(t('import.checkedIn', { count: result.checkedIn }));
          }}
        />
      )}
    </>
  );
};
