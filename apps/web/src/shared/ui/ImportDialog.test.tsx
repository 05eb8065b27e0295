import type { Endpoint } from '@vigil/contract/browser';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { englishI18n, inTestShell } from '../../test/render.tsx';
import { ImportDialog, localProblem } from './ImportDialog.tsx';
import { expectRefusal } from '../../test/refusal.ts';

/** XHR stand-in: records what the dialog sends and answers when the test says so. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 200;
  responseText = '';
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  answer(envelope: unknown) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    this.responseText = JSON.stringify(envelope);
    this.onload?.();
  }
}

const template: Endpoint<{ lang?: string }, null> = { method: 'GET', path: '/thing/excelModel', input: 'query' };
const importCall: Endpoint<unknown, { imported: number }> = {
  method: 'POST',
  path: '/thing/batchAdd',
  input: 'multipart',
};

let i18n: I18n;
beforeAll(async () => {
  i18n = await englishI18n();
});
beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

const open = (onImported = vi.fn()) => {
  const view = render(
    inTestShell(
      i18n,
      <ImportDialog
        open
        title="Import residents"
        template={template}
        templateInput={{}}
        templateName="residents.xlsx"
        importCall={importCall}
        extraFields={{ providerId: '7' }}
        onClose={() => undefined}
        onImported={onImported}
      />,
    ),
  );
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  return { view, input, onImported };
};
const xlsx = (name = 'people.xlsx', size = 2000) => {
  const file = new File(['x'], name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
};

describe('ImportDialog', () => {
  it('checks type and size locally, like the server', () => {
    expect(localProblem({ name: 'a.XLSX', size: 10 })).toBeNull();
    expect(localProblem({ name: 'a.xls', size: 10 })).toBeNull();
    expect(localProblem({ name: 'a.csv', size: 10 })).toBe('transfer.wrongType');
    expect(localProblem({ name: 'a.xlsx', size: 11 * 1024 * 1024 })).toBe('transfer.tooLarge');
  });

  it('refuses a wrong file type without sending it', async () => {
    const { input } = open();
    fireEvent.change(input, { target: { files: [xlsx('people.csv')] } });
    expect(await screen.findByText('Only .xls and .xlsx files can be imported.')).toBeInTheDocument();
    await expectRefusal(screen.getByTestId('import-start'), 'Choose a file first.');
    expect(FakeXhr.last).toBeNull();
  });

  it('uploads the file with its extra fields and reports the rows imported', async () => {
    const { input, onImported } = open();
    fireEvent.change(input, { target: { files: [xlsx()] } });
    fireEvent.click(await screen.findByTestId('import-start'));
    const xhr = FakeXhr.last as FakeXhr | null;
    expect(xhr?.method).toBe('POST');
    expect(xhr?.url).toBe('/thing/batchAdd');
    expect(xhr?.body?.get('providerId')).toBe('7');
    expect((xhr?.body?.get('file') as File).name).toBe('people.xlsx');
    act(() => xhr?.answer({ status: 200, msg: 'ok', data: { imported: 200 } }));
    expect(await screen.findByText('200 rows imported.')).toBeInTheDocument();
    expect(onImported).toHaveBeenCalledOnce();
  });

  it('lists every problem row of a refused import and imports nothing', async () => {
    const { input, onImported } = open();
    fireEvent.change(input, { target: { files: [xlsx()] } });
    fireEvent.click(await screen.findByTestId('import-start'));
    act(() =>
      FakeXhr.last?.answer({
        status: 400,
        msg: '2 problems found; nothing was imported.',
        msgKey: 'import.rowErrors',
        data: {
          problems: [
            { row: 3, column: 'Gender', reason: 'must be male or female' },
            { row: 9, column: 'Bed', reason: 'repeats row 4 of this file' },
          ],
        },
      }),
    );
    expect(await screen.findByText('2 problems found; nothing was imported.')).toBeInTheDocument();
    expect(screen.getByText('must be male or female')).toBeInTheDocument();
    expect(screen.getByText('repeats row 4 of this file')).toBeInTheDocument();
    expect(screen.getByText('9')).toBeInTheDocument();
    expect(onImported).not.toHaveBeenCalled();
  });
});
