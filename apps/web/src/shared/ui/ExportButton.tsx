import type { Endpoint, EndpointRequest } from '@vigil/contract/browser';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '../api/client.ts';
import { saveFile } from './save-file.ts';
import { useApiError } from './useApiError.ts';

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** Exports with the list's current filters; shows how much has arrived while a long export downloads. */
export const ExportButton = <E extends Endpoint>(props: { call: E; input: EndpointRequest<E>; filename: string }) => {
  const { t } = useTranslation();
  const onError = useApiError();
  const [received, setReceived] = useState<number | null>(null);
  const run = async () => {
    setReceived(0);
    try {
      saveFile(await download(props.call, props.input, (n) => setReceived(n)), props.filename);
    } catch (error) {
      onError(error);
    } finally {
      setReceived(null);
    }
  };
  return (
    <Button onClick={() => void run()} loading={received !== null} data-testid="export">
      {received ? t('transfer.downloading', { size: kb(received) }) : t('transfer.export')}
    </Button>
  );
};
