import {
  CONFIRM_MOVE_KEY,
  failureData,
  getBunkConfiguration,
  userCheckIn,
  type BunkConflict,
} from '@vigil/contract/browser';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Cascader, Empty, Form, Modal, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { useFormSubmit } from '../../shared/ui/useFormSubmit.ts';
import { bedOfPath, bedOptions } from './bed-options.ts';
import { placeOf, type ResidentRow } from './resident-model.ts';

interface CheckInFields {
  bed?: number[];
}

/**
 * Check a resident in to a free bed (or move a checked-in one). When the server answers that
 * the move needs confirmation (the resident is in another bed, or the bed is taken meanwhile),
 * the conflicts are shown and, if the user agrees, the same request goes again with confirm.
 */
export const CheckInDialog = (props: { resident: ResidentRow | null; onClose: () => void }) => {
  const { resident } = props;
  const { t } = useTranslation('residents');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CheckInFields>();

  const config = useQuery({
    queryKey: ['residents', 'freeBeds', resident?.providerId],
    queryFn: () => api(getBunkConfiguration, { free: true, providerId: resident?.providerId }),
    enabled: resident !== null,
  });
  const options = useMemo(
    () =>
      config.data && resident
        ? bedOptions(config.data, resident.providerId, (bed) =>
            bed.deviceId ? t('checkIn.bedWithDevice', { bed: bed.name, device: bed.deviceId }) : bed.name,
          )
        : [],
    [config.data, resident, t],
  );

  useEffect(() => {
    if (resident) form.resetFields();
  }, [resident, form]);

  const describe = (c: BunkConflict) =>
    c.kind === 'device'
      ? t('checkIn.conflict.device', { device: c.deviceId ?? '', bed: c.bunkPath })
      : c.kind === 'resident'
        ? t('checkIn.conflict.resident', { name: c.userName ?? '', bed: c.bunkPath })
        : t('checkIn.conflict.occupant', { name: c.userName ?? '', bed: c.bunkPath });

  const checkIn = useMutation({
    mutationFn: async ({ userId, bunkId }: { userId: number; bunkId: number }) => {
      try {
        return await api(userCheckIn, { userId, bunkId });
      } catch (error) {
        const conflicts = failureData(error, CONFIRM_MOVE_KEY)?.conflicts;
        if (!conflicts) throw error;
        const confirmed = await modal.confirm({
          title: t('checkIn.confirmTitle'),
          content: (
            <ul data-testid="checkin-conflicts" style={{ paddingInlineStart: 18, margin: 0 }}>
              {conflicts.map((c) => (
                <li key={`${c.kind}:${c.bunkId}`}>{describe(c)}</li>
              ))}
            </ul>
          ),
          okText: t('checkIn.confirmOk'),
          cancelText: t('common.cancel'),
        });
        return confirmed ? api(userCheckIn, { userId, bunkId, confirm: true }) : null;
      }
    },
    onSuccess: (bed) => {
      if (!bed || !resident) return;
      void message.success(
        t('checkIn.done', {
          name: resident.name,
          bed: [bed.areaName, bed.floorName, bed.roomName, bed.name].join(' / '),
        }),
      );
      void queryClient.invalidateQueries({ queryKey: ['residents'] });
      props.onClose();
    },
  });

  const moving = resident?.state === 'checkedIn';
  const submit = useFormSubmit(form, async (values: CheckInFields) => {
    const bunkId = bedOfPath(values.bed);
    if (resident && bunkId !== undefined) await checkIn.mutateAsync({ userId: resident.id, bunkId });
  });

  return (
    <Modal
      open={resident !== null}
      title={resident ? t(moving ? 'checkIn.moveTitle' : 'checkIn.title', { name: resident.name }) : ''}
      okText={t(moving ? 'checkIn.moveOk' : 'checkIn.ok')}
      cancelText={t('common.cancel')}
      {...submit.modalProps(props.onClose)}
      okButtonProps={{ disabled: config.isSuccess && options.length === 0 }}
      forceRender
    >
      {resident && moving && (
        <Typography.Paragraph type="secondary">
          {t('checkIn.currentBed', { bed: placeOf(resident) })}
        </Typography.Paragraph>
      )}
      {resident && resident.state === 'checkedOut' && resident.roomName && (
        <Typography.Paragraph type="secondary">
          {t('checkIn.lastAddress', { place: placeOf({ ...resident, bedName: null }) })}
        </Typography.Paragraph>
      )}
      {config.isError && <Alert type="error" showIcon title={t('checkIn.loadFailed')} />}
      <Form<CheckInFields> {...submit.formProps} layout="vertical" data-testid="checkin-form">
        {config.isSuccess && options.length === 0 ? (
          <Empty description={t('checkIn.noFreeBed')} data-testid="checkin-empty" />
        ) : (
          <Form.Item
            name="bed"
            label={t('checkIn.bed')}
            rules={[
              {
                validator: (_, path: number[] | undefined) =>
                  bedOfPath(path) === undefined ? Promise.reject(new Error(t('checkIn.pickBed'))) : Promise.resolve(),
              },
            ]}
          >
            <Cascader
              showSearch
              loading={config.isFetching}
              placeholder={t('checkIn.pickBed')}
              options={options}
              data-testid="checkin-bed"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
};
