import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '@vigil/contract/browser';
import { Form, Input, Modal } from 'antd';
import type { i18n as I18n } from 'i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { dirtyForms } from './dirty-forms.ts';
import { useFormSubmit } from './useFormSubmit.ts';

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});

interface Fields {
  name: string;
  passWord?: string;
}

/** A promise the test settles by hand: the request "in flight". */
const deferred = () => {
  let resolve: (value: unknown) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/** A dialog as the console's are built: one hook for OK, Enter, Cancel, errors and unsaved changes. */
const Dialog = (props: { save: (values: Fields) => Promise<unknown>; onClose?: () => void; twoFields?: boolean }) => {
  const [form] = Form.useForm<Fields>();
  const submit = useFormSubmit(form, props.save);
  return (
    <Modal
      open
      title="Dialog"
      okText="Save"
      cancelText="Cancel"
      okButtonProps={{ 'data-testid': 'save' }}
      {...submit.modalProps(props.onClose ?? (() => {}))}
    >
      <Form {...submit.formProps} data-testid="form">
        <Form.Item name="name" label="Name" rules={[{ required: true, message: 'Name is required' }]}>
          <Input data-testid="name" />
        </Form.Item>
        {props.twoFields && (
          <Form.Item name="passWord" label="Password">
            <Input data-testid="password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const saveButton = () => screen.getByTestId('save');
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('useFormSubmit', () => {
  it('sends one request for a double click, and the button shows loading until it settles', async () => {
    const request = deferred();
    const save = vi.fn(() => request.promise);
    render(inTestShell(i18n, <Dialog save={save} />));
    type('name', 'Sunrise');
    fireEvent.click(saveButton());
    // A person's double click: the second comes after the first has been validated and sent.
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    fireEvent.click(saveButton());
    await pause(30);
    await waitFor(() => expect(saveButton()).toHaveClass('ant-btn-loading'));
    fireEvent.click(saveButton());
    await act(async () => {
      request.resolve(null);
      await request.promise;
    });
    await waitFor(() => expect(saveButton()).not.toHaveClass('ant-btn-loading'));
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('ignores a repeat landing just after a quick save succeeded, but saves again once a value changed', async () => {
    const save = vi.fn(() => Promise.resolve(null));
    render(inTestShell(i18n, <Dialog save={save} />));
    type('name', 'Sunrise');
    fireEvent.click(saveButton());
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    await pause(20);
    // The first request is answered; the second click of the same gesture still arrives.
    fireEvent.click(saveButton());
    fireEvent.submit(screen.getByTestId('form'));
    await pause(50);
    expect(save).toHaveBeenCalledTimes(1);
    type('name', 'Sunrise Care');
    fireEvent.click(saveButton());
    await waitFor(() => expect(save).toHaveBeenCalledTimes(2));
  });

  it('sends one request for a click followed by Enter', async () => {
    const request = deferred();
    const save = vi.fn(() => request.promise);
    render(inTestShell(i18n, <Dialog save={save} />));
    type('name', 'Sunrise');
    fireEvent.click(saveButton());
    await waitFor(() => expect(save).toHaveBeenCalled());
    fireEvent.submit(screen.getByTestId('form'));
    await pause(50);
    expect(save).toHaveBeenCalledTimes(1);
    await act(async () => {
      request.resolve(null);
      await request.promise;
    });
  });

  it('submits a one-field dialog with Enter (the form submit), after validating', async () => {
    const save = vi.fn(() => Promise.resolve(null));
    render(inTestShell(i18n, <Dialog save={save} />));
    fireEvent.submit(screen.getByTestId('form'));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(save).not.toHaveBeenCalled();
    type('name', 'Sunrise');
    fireEvent.submit(screen.getByTestId('form'));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ name: 'Sunrise' }));
  });

  it('puts a refusal naming a field on that field (matching its name whatever the case), without a toast', async () => {
    const save = vi.fn(() =>
      Promise.reject(new ApiError(400, 'The password is too weak.', 'password.rules', 200, null, 'password')),
    );
    render(inTestShell(i18n, <Dialog save={save} twoFields />));
    type('name', 'Sunrise');
    fireEvent.click(saveButton());
    const message = await screen.findByText('The password is too weak.');
    expect(message.closest('.ant-form-item')).toContainElement(screen.getByTestId('password'));
    expect(document.querySelector('.ant-message')).toBeNull();
  });

  it('shows a refusal about no field of the form in a toast', async () => {
    const save = vi.fn(() => Promise.reject(new ApiError(300, 'No permission.', 'no_permission', 200)));
    render(inTestShell(i18n, <Dialog save={save} />));
    type('name', 'Sunrise');
    fireEvent.click(saveButton());
    expect(await screen.findByText('No permission.')).toBeInTheDocument();
    expect(document.querySelector('.ant-form-item-explain-error')).toBeNull();
  });

  it('registers typed changes as unsaved until saved, and asks before Cancel discards them', async () => {
    const onClose = vi.fn();
    const save = vi.fn(() => Promise.resolve(null));
    render(inTestShell(i18n, <Dialog save={save} onClose={onClose} />));
    expect(dirtyForms.any()).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);

    type('name', 'Half typed');
    expect(dirtyForms.any()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByTestId('unsaved-stay'));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId<HTMLInputElement>('name').value).toBe('Half typed');
    expect(dirtyForms.any()).toBe(true);

    fireEvent.click(saveButton());
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(dirtyForms.any()).toBe(false));
  });

  it('discards on request: Cancel, then "discard and leave" closes and the form is no longer unsaved', async () => {
    const onClose = vi.fn();
    render(inTestShell(i18n, <Dialog save={() => Promise.resolve(null)} onClose={onClose} />));
    type('name', 'Half typed');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(await screen.findByTestId('unsaved-leave'));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(dirtyForms.any()).toBe(false);
  });

  it('leaves the form unsaved when the save reports that nothing was saved (the user declined)', async () => {
    render(inTestShell(i18n, <Dialog save={() => Promise.resolve(false)} />));
    type('name', 'Declined');
    fireEvent.click(saveButton());
    await pause(20);
    expect(dirtyForms.any()).toBe(true);
  });
});
