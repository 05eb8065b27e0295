import { nursingBatchAdd, nursingExcelModel, nursingExportData } from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { ExportButton } from '../../shared/ui/ExportButton.tsx';
import { ImportDialog } from '../../shared/ui/ImportDialog.tsx';
import type { CaregiverFilters } from './caregiver-model.ts';
import { ImportedAccountsDialog, type ImportedAccount } from './ImportedAccountsDialog.tsx';
import { useCaregiverTexts } from './useCaregiverTexts.ts';

/**
 * Batch import and export of the list. An import creates app accounts with generated passwords;
 * they arrive once in the import's result and are shown at once, in their own dialog.
 */
export const CaregiverTransfer = ({ filters }: { filters: CaregiverFilters }) => {
  const { t, v } = useCaregiverTexts();
  const queryClient = useQueryClient();
  const [importing, setImporting] = useState(false);
  const [accounts, setAccounts] = useState<readonly ImportedAccount[] | null>(null);

  return (
    <Space wrap>
      <Button data-testid="caregiver-import" onClick={() => setImporting(true)}>
        {t('transfer.import')}
      </Button>
      <ExportButton call={nursingExportData} input={filters} filename={t('file.export')} />
      {/* Mounted only while open, so a second import starts clean. */}
      {importing && (
        <ImportDialog
          open
          title={v('importTitle')}
          template={nursingExcelModel}
          templateInput={{}}
          templateName={t('file.template')}
          importCall={nursingBatchAdd}
          onClose={() => setImporting(false)}
          onImported={(result) => {
            void queryClient.invalidateQueries({ queryKey: ['caregivers'] });
            if (result.accounts.length > 0) {
              // The passwords matter more than the count the import dialog would show.
              setImporting(false);
              setAccounts(result.accounts);
            }
          }}
        />
      )}
      {accounts && <ImportedAccountsDialog accounts={accounts} onClose={() => setAccounts(null)} />}
    </Space>
  );
};
