import type { AlarmRecord } from '@vigil/contract/browser';
import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { levelTag } from '../alarm-log/alarm-model.ts';
import { AlarmMeasure } from '../../shared/live/AlarmFigures.tsx';

/** Today's alarms of the resident, newest first: when and how urgent, what, and whether released. */
export const TodayAlarms = ({ alarms }: { alarms: AlarmRecord[] }) => {
  const { t } = useTranslation(['real-monitor', 'alarm-log']);
  const columns: ColumnsType<AlarmRecord> = [
    {
      title: t('alarms.time'),
      dataIndex: 'timeStamp',
      width: 72,
      // The level under the time: the alarm's text keeps the width on a phone.
      render: (ts: number, alarm) => {
        const tag = levelTag(alarm.alertLevel, t);
        return (
          <>
            <div>{dayjs.unix(ts).format('HH:mm')}</div>
            <Tag color={tag.color}>{tag.text}</Tag>
          </>
        );
      },
    },
    {
      title: t('alarms.text'),
      dataIndex: 'text',
      render: (text: string, alarm) => (
        <>
          {text}
          {alarm.measureText && (
            <div>
              <AlarmMeasure alarm={alarm} />
            </div>
          )}
        </>
      ),
    },
    {
      title: t('alarms.released'),
      key: 'released',
      render: (_, alarm) =>
        alarm.isRelieve && alarm.releaseKind !== 0 ? (
          <Tag color="green">{t(`alarm-log:releaseKind.${alarm.releaseKind}`)}</Tag>
        ) : (
          <Tag color="red">{t('alarm-log:tab.pending')}</Tag>
        ),
    },
  ];
  return (
    <Table<AlarmRecord>
      rowKey="id"
      size="small"
      data-testid="resident-alarms"
      columns={columns}
      dataSource={alarms}
      pagination={alarms.length > 10 ? { pageSize: 10, size: 'small' } : false}
      locale={{ emptyText: t('alarms.none') }}
    />
  );
};
