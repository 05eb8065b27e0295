import type { AlarmRecord } from '@vigil/contract/browser';
import { Alert, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { FC } from 'react';
import { useTranslation } from 'react-i18next';
import { RefusableButton } from '../../shared/ui/Refused.tsx';
import { formatSeconds } from './alarm-model.ts';
import type { useAddNote } from './use-handled-elsewhere.ts';

/** A release's moment: the time of day when it was today (a live update), else date and time. */
const momentOf = (seconds: number | null): string => {
  if (seconds === null) return '';
  const at = dayjs.unix(seconds);
  return at.isSame(dayjs(), 'day') ? at.format('HH:mm') : formatSeconds(seconds);
};

/** Who released the alarm, how and when: "Handled by Chen Jing at 01:41". */
export const outcomeOf = (alarm: AlarmRecord, t: TFunction): string => {
  const time = momentOf(alarm.dealTime);
  switch (alarm.releaseKind) {
    case 2:
      return t('elsewhere.cleared', { time });
    case 3:
      return t('elsewhere.atDevice', { time });
    case 4:
      return t('elsewhere.atWatch', { time });
    default:
      return alarm.handlerName
        ? t('elsewhere.handledBy', { who: alarm.handlerName, time })
        : t('elsewhere.handled', { time });
  }
};

/** What the handler recorded: why, what they found, and what they wrote. */
export const handlingOf = (alarm: AlarmRecord, t: TFunction): string =>
  [
    alarm.relieveReason && t(`relieve.${alarm.relieveReason}`),
    alarm.dealResult && t(`dealResult.${alarm.dealResult}`),
    alarm.remark,
  ]
    .filter(Boolean)
    .join(' · ');

/**
 * The handle dialog's word that the alarm was handled while it was open — on another console, by
 * the app, at a nurse watch or the device — by whom, when and how; what the caregiver typed can
 * still go on the alarm's timeline.
 */
export const HandledElsewhere = ({ alarm }: { alarm: AlarmRecord }) => {
  const { t } = useTranslation('alarm-log');
  const handling = handlingOf(alarm, t);
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="alarm-handled-elsewhere"
      title={t('elsewhere.title')}
      description={
        <>
          <Typography.Paragraph strong style={{ marginBottom: 4 }} data-testid="alarm-handled-by">
            {handling ? t('elsewhere.withHandling', { outcome: outcomeOf(alarm, t), handling }) : outcomeOf(alarm, t)}
          </Typography.Paragraph>
          <Typography.Text type="secondary">{t('elsewhere.keepNotes')}</Typography.Text>
        </>
      }
    />
  );
};

/**
 * The dialog's buttons once the alarm was handled elsewhere: Handle stays, disabled, saying why;
 * "Add to timeline" keeps what was typed under Details (disabled, saying why, while it is empty).
 */
export const ElsewhereFooter = ({
  OkBtn,
  CancelBtn,
  note,
}: {
  OkBtn: FC;
  CancelBtn: FC;
  note: ReturnType<typeof useAddNote>;
}) => {
  const { t } = useTranslation('alarm-log');
  return (
    <>
      <CancelBtn />
      {/* A disabled button reports no hover; the span around it does, and says why. */}
      <Tooltip title={t('elsewhere.handleDisabled')}>
        <span
          className="refused-action"
          style={{ display: 'inline-block', marginInlineStart: 8, cursor: 'not-allowed' }}
        >
          <OkBtn />
        </span>
      </Tooltip>
      <span style={{ display: 'inline-block', marginInlineStart: 8 }}>
        <RefusableButton
          type="primary"
          refusal={note.empty ? t('note.empty') : undefined}
          loading={note.adding}
          onClick={() => void note.add()}
          data-testid="alarm-add-note"
        >
          {t('note.add')}
        </RefusableButton>
      </span>
    </>
  );
};
