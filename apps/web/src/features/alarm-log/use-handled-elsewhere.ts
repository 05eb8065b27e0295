import { alarmAddNote, alarmDealStatus, type AlarmRecord } from '@vigil/contract/browser';
import { App, Form, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api/client.ts';
import { doneElsewhere } from '../../shared/live/alarm-updates.ts';
import { useAlarmUpdate } from '../../shared/live/LiveAlarms.tsx';
import { showFieldError } from '../../shared/ui/field-errors.ts';
import { useApiError } from '../../shared/ui/useApiError.ts';

/**
 * What became of an alarm while its handle dialog is open (issue 29, point 6): released on another
 * console, in the app, at a nurse watch or the device — as the live socket pushed it, or as the
 * server says after refusing this dialog's handling (it lost the race). Null while it still waits
 * for a handling, and while this dialog's own handling is on its way (its release comes back too).
 */
export const useHandledElsewhere = (alarm: AlarmRecord, handling: boolean) => {
  const pushed = useAlarmUpdate(alarm.id);
  const [told, setTold] = useState<AlarmRecord | null>(null);
  const done = handling ? null : (doneElsewhere(told) ?? doneElsewhere(pushed) ?? doneElsewhere(alarm));
  /** Asks the server what happened after it refused the handling; false when it cannot say. */
  const learn = async (): Promise<boolean> => {
    const now = await api(alarmDealStatus, { id: alarm.id }).catch(() => null);
    setTold(doneElsewhere(now));
    return doneElsewhere(now) !== null;
  };
  return { done, learn };
};

/**
 * Adds what the caregiver typed under Details to the alarm's timeline as a note (/alarmLog/addNote),
 * once the alarm was handled elsewhere: her notes are kept, the handling is not repeated.
 */
export const useAddNote = <V extends { details?: string }>(
  form: FormInstance<V>,
  alarmId: number,
  onAdded: () => void,
) => {
  const { t } = useTranslation('alarm-log');
  const { message } = App.useApp();
  const toast = useApiError();
  const [adding, setAdding] = useState(false);
  const typed = Form.useWatch('details', form) as string | undefined;
  const note = typed?.trim() ?? '';
  const add = async () => {
    if (!note || adding) return;
    setAdding(true);
    try {
      await api(alarmAddNote, { id: alarmId, note });
      void message.success(t('note.added'));
      onAdded();
    } catch (error) {
      if (!showFieldError(form as FormInstance, error, { note: ['details'] })) toast(error);
    } finally {
      setAdding(false);
    }
  };
  return { add, adding, empty: !note };
};
