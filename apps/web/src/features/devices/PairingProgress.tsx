import { heSubDevicePairStatus } from '@vigil/contract/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Spin, Steps, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import {
  isFinalCommandState,
  PAIRING_POLL_MS,
  type CommandState,
  type PairingReceipt,
  type PairingStatus,
} from './device-model.ts';

/**
 * Where a pairing command stands: this receipt's command while it is the latest for the
 * sub-device; a newer request replaced it otherwise.
 */
export const pairingStateOf = (receipt: Pick<PairingReceipt, 'commandId'>, status: PairingStatus | undefined) => {
  const command = status?.command;
  if (!command) return { state: 'pending' as CommandState, error: null };
  if (command.commandId !== receipt.commandId) return { state: 'superseded' as CommandState, error: null };
  return { state: command.state, error: command.error };
};

/**
 * The progress of one pairing command (pair, pair_scan, unpair) sent to a gateway host: queued →
 * sent to the host → paired, unpaired, failed (with the host's reason), expired … It asks the
 * server every PAIRING_POLL_MS while shown and stops once the state is final (or when closed:
 * the query goes with the component). A final state refreshes the device lists.
 */
export const PairingProgress = (props: { receipt: PairingReceipt }) => {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const { receipt } = props;
  const status = useQuery({
    queryKey: ['devices', 'pairStatus', receipt.hostDeviceId, receipt.deviceId, receipt.commandId],
    queryFn: () => api(heSubDevicePairStatus, { hostDeviceId: receipt.hostDeviceId, deviceId: receipt.deviceId }),
    refetchInterval: (query) =>
      query.state.data && isFinalCommandState(pairingStateOf(receipt, query.state.data).state)
        ? false
        : PAIRING_POLL_MS,
    // Progress is followed even with the console in another window (the installer is at the sensor).
    refetchIntervalInBackground: true,
  });
  const { state, error } = pairingStateOf(receipt, status.data);
  const final = status.data !== undefined && isFinalCommandState(state);

  useEffect(() => {
    // The lists show the new paired flag and no longer the queued command.
    if (final) void queryClient.invalidateQueries({ queryKey: ['devices'], refetchType: 'active' });
  }, [final, queryClient]);

  const unpair = receipt.command === 'unpair';
  const scan = receipt.command === 'pair_scan';
  const names = { deviceId: receipt.deviceId, host: receipt.hostDeviceId };
  const current = state === 'pending' ? 0 : state === 'sent' ? 1 : 2;
  const last =
    state === 'acked'
      ? t(unpair ? 'pairing.unpaired' : 'pairing.paired')
      : isFinalCommandState(state)
        ? t(`pairing.${state}`)
        : t(unpair ? 'pairing.resultUnpair' : 'pairing.resultPair');
  const stepStatus = state === 'acked' ? 'finish' : isFinalCommandState(state) ? 'error' : 'process';

  return (
    <div data-testid="pairing-progress" data-state={state}>
      <Steps
        size="small"
        current={current}
        status={stepStatus}
        items={[{ title: t('pairing.queued') }, { title: t('pairing.sent') }, { title: last }]}
        style={{ marginBottom: 16 }}
      />
      {status.isError && !status.data && (
        <Alert type="warning" showIcon title={status.error instanceof Error ? status.error.message : ''} />
      )}
      {state === 'pending' && !receipt.hostOnline && (
        <Alert type="info" showIcon data-testid="pairing-host-offline" title={t('pairing.hostOffline', names)} />
      )}
      {!final && (state === 'sent' || receipt.hostOnline) && (
        <Typography.Paragraph>
          <Spin size="small" style={{ marginRight: 8 }} />
          {scan && state === 'sent' ? t('pairing.pressButton', names) : t('pairing.waiting', names)}
        </Typography.Paragraph>
      )}
      {state === 'acked' && (
        <Alert
          type="success"
          showIcon
          data-testid="pairing-done"
          title={t(unpair ? 'pairing.unpairedNote' : 'pairing.pairedNote', names)}
        />
      )}
      {state === 'failed' && (
        <Alert
          type="error"
          showIcon
          data-testid="pairing-failed"
          title={t('pairing.failedNote', { ...names, reason: error ?? '' })}
        />
      )}
      {(state === 'expired' || state === 'superseded' || state === 'cancelled') && (
        <Alert type="warning" showIcon data-testid="pairing-ended" title={t(`pairing.${state}Note`, names)} />
      )}
    </div>
  );
};

/** The progress of a pairing command in a dialog of its own (after unpair, or once a pairing is queued). */
export const PairingProgressDialog = (props: { receipt: PairingReceipt; onClose: () => void }) => {
  const { t } = useTranslation('devices');
  const { receipt } = props;
  return (
    <Modal
      open
      title={t(receipt.command === 'unpair' ? 'pairing.unpairTitle' : 'pairing.title', {
        deviceId: receipt.deviceId,
        host: receipt.hostDeviceId,
      })}
      onCancel={props.onClose}
      footer={<Button onClick={props.onClose}>{t('common.close')}</Button>}
      mask={{ closable: false }}
    >
      <PairingProgress receipt={receipt} />
    </Modal>
  );
};
