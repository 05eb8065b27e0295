import { deviceStockExcelModel, deviceStockImportSheet } from '@vigil/contract/browser';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportDialog } from '../../shared/ui/ImportDialog.tsx';

/** Loads manufactured device IDs into the registry from a spreadsheet (all or nothing). */
export const RegistryImport = () => {
  const { t, i18n } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="stock-import">
        {t('transfer.import')}
      </Button>
      {open && (
        <ImportDialog
          open
          title={t('import.registry')}
          template={deviceStockExcelModel}
          templateInput={{ language: i18n.language }}
          templateName={t('file.registryTemplate')}
          importCall={deviceStockImportSheet}
          onClose={() => setOpen(false)}
          onImported={() => void queryClient.invalidateQueries({ queryKey: ['devices', 'stock'] })}
        />
      )}
    </>
  );
};
