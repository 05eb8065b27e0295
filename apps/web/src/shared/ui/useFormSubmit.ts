import { App, type FormInstance } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dirtyForms } from './dirty-forms.ts';
import { showFieldError } from './field-errors.ts';
import { useApiError } from './useApiError.ts';

/**
 * A save that succeeded may leave the form on screen a moment longer (a navigation still
 * rendering, a dialog closing): a second click or Enter of the same gesture landing then is
 * ignored, unless the user changed a value since.
 */
const AFTER_SAVE_MS = 1000;

export interface FormSubmitOptions {
  /** A failure that names no field of the form; default: the server's message in a toast. */
  onError?: (error: unknown) => void;
  /** Server field names that differ from the form's beyond case, e.g. `{ names: ['roomNames'] }`. */
  fieldAliases?: Readonly<Record<string, (string | number)[]>>;
  /** Leaving with unsaved changes asks first (default true). */
  guardUnsaved?: boolean;
}

export interface FormSubmit<V> {
  /** True from the click until the request settles: the Save button shows loading and takes no clicks. */
  pending: boolean;
  /** Validates and saves; ignored while a save runs. For a Save button or a dialog's OK. */
  submit: () => void;
  /** Spread on the `<Form>`: Enter goes through the same guard, and typing marks the form unsaved. */
  formProps: {
    form: FormInstance<V>;
    onFinish: (values: V) => void;
    onValuesChange: () => void;
  };
  /** Spread on a `<Modal>`: OK submits, Cancel (and Esc, and the close button) asks first when unsaved. */
  modalProps: (onClose: () => void) => {
    onOk: () => void;
    onCancel: () => void;
    confirmLoading: boolean;
  };
  /** Runs `leave` at once when nothing is unsaved, else after the user agrees to discard. */
  confirmLeave: (leave: () => void) => void;
  /** The form's values are saved or reset: leaving no longer asks. */
  markSaved: () => void;
}

/**
 * The one way a form saves. A submission holds a lock from the validated values until the request
 * settles, so a double click, a click plus Enter, or Enter held down send one request; the button
 * shows loading meanwhile. A refusal naming a field shows on that field; others in a toast.
 * While the form holds unsaved changes it is registered as dirty (see dirty-forms.ts).
 */
export const useFormSubmit = <V>(
  form: FormInstance<V>,
  save: (values: V) => Promise<unknown>,
  options: FormSubmitOptions = {},
): FormSubmit<V> => {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const toast = useApiError();
  const busy = useRef(false);
  /** Until when a repeat of a saved submission is ignored (see AFTER_SAVE_MS). */
  const quietUntil = useRef(0);
  const changed = useRef(false);
  const [pending, setPending] = useState(false);
  const latest = useRef({ save, options, toast });
  latest.current = { save, options, toast };
  const guard = options.guardUnsaved ?? true;

  useEffect(() => {
    if (!guard) return undefined;
    // Unsaved while changed by the user and not being saved right now (saving navigates away on success).
    return dirtyForms.register(() => changed.current && !busy.current);
  }, [guard]);

  const run = useCallback(
    async (values: V) => {
      if (busy.current || Date.now() < quietUntil.current) return;
      busy.current = true;
      setPending(true);
      try {
        // `false` means nothing was saved (the user declined a question): the form stays unsaved.
        if ((await latest.current.save(values)) !== false) {
          changed.current = false;
          quietUntil.current = Date.now() + AFTER_SAVE_MS;
        }
      } catch (error) {
        const { options: current, toast: report } = latest.current;
        if (!showFieldError(form as FormInstance, error, current.fieldAliases)) (current.onError ?? report)(error);
      } finally {
        busy.current = false;
        setPending(false);
        dirtyForms.changed();
      }
    },
    [form],
  );

  // The form validates and calls onFinish. Overlapping submissions (a double click, a click and
  // Enter) validate once: the form drops all but the latest validation. Later ones find the lock.
  const submit = useCallback(() => {
    if (!busy.current && Date.now() >= quietUntil.current) form.submit();
  }, [form]);
  const onFinish = useCallback((values: V) => void run(values), [run]);
  const onValuesChange = useCallback(() => {
    changed.current = true;
    quietUntil.current = 0;
    dirtyForms.changed();
  }, []);
  const markSaved = useCallback(() => {
    changed.current = false;
    dirtyForms.changed();
  }, []);

  const confirmLeave = useCallback(
    (leave: () => void) => {
      if (!guard || !changed.current || busy.current) {
        leave();
        return;
      }
      modal.confirm({
        title: t('unsaved.title'),
        content: t('unsaved.content'),
        okText: t('unsaved.leave'),
        cancelText: t('unsaved.stay'),
        okButtonProps: { danger: true, 'data-testid': 'unsaved-leave' },
        cancelButtonProps: { 'data-testid': 'unsaved-stay' },
        onOk: () => {
          changed.current = false;
          dirtyForms.changed();
          leave();
        },
      });
    },
    [guard, modal, t],
  );

  const modalProps = useCallback(
    (onClose: () => void) => ({
      onOk: submit,
      onCancel: () => confirmLeave(onClose),
      confirmLoading: pending,
    }),
    [confirmLeave, pending, submit],
  );

  return {
    pending,
    submit,
    formProps: { form, onFinish, onValuesChange },
    modalProps,
    confirmLeave,
    markSaved,
  };
};
