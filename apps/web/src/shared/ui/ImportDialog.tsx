import { CONSTANTS, type Endpoint, type EndpointRequest, type EndpointResult } from '@vigil/contract/browser';
import { Alert, App, Button, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, download } from '../api/client.ts';
import { upload } from '../api/upload.ts';
import { saveFile } from './save-file.ts';
import { useApiError } from './useApiError.ts';
import { RefusableButton } from './Refused.tsx';

/** One refused row as the server reports it (spreadsheet row number, column, reason). */
export interface ImportProblem {
  row: number;
  column: string;
  reason: string;
}

const problemsOf = (error: unknown): ImportProblem[] | null => {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return null;
  const problems = (error.data as { problems?: unknown }).problems;
  return Array.isArray(problems) ? (problems as ImportProblem[]) : null;
};

/** A refusal the user may overrule (same-name residents) names the form field that confirms. */
const confirmFieldOf = (error: unknown): string | null => {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return null;
  const field = (error.data as { confirmField?: unknown }).confirmField;
  return typeof field === 'string' ? field : null;
};

const { maxBytes, extensions } = CONSTANTS.spreadsheetImport;
/** The same first checks the server makes, so a wrong file is refused before it is sent. */
export const localProblem = (file: {
  name: string;
  size: number;
}): 'transfer.wrongType' | 'transfer.tooLarge' | null => {
  const name = file.name.toLowerCase();
  if (!extensions.some((ext) => name.endsWith(ext))) return 'transfer.wrongType';
  if (file.size > maxBytes) return 'transfer.tooLarge';
  return null;
};

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number }
  | { kind: 'processing' }
  | { kind: 'done'; imported: number }
  | { kind: 'refused'; message: string; problems: ImportProblem[]; confirmField: string | null };

export interface ImportDialogProps<T extends Endpoint, U extends Endpoint> {
  open: boolean;
  title: string;
  /** The template call (excelModel) and its input; the template is in the user's language. */
  template: T;
  templateInput: EndpointRequest<T>;
  templateName: string;
  /** The multipart import call; the file travels as `file`, plus any extra fields. */
  importCall: U;
  extraFields?: Record<string, string>;
  onClose: () => void;
  /** Called with the import call's whole result (counts, generated accounts …). */
  onImported: (result: EndpointResult<U>) => void;
}

/**
 * Batch import: template download, local type and size checks, upload progress, then either
 * the number imported or every problem row (nothing is imported when any row is bad).
 */
export const ImportDialog = <T extends Endpoint, U extends Endpoint>(props: ImportDialogProps<T, U>) => {
  const { t } = useTranslation();
  const onError = useApiError();
  const { message } = App.useApp();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [file, setFile] = useState<File | null>(null);
  const [templateBusy, setTemplateBusy] = useState(false);
  const busy = phase.kind === 'uploading' || phase.kind === 'processing';

  const getTemplate = async () => {
    setTemplateBusy(true);
    try {
      saveFile(await download(props.template, props.templateInput), props.templateName);
    } catch (error) {
      onError(error);
    } finally {
      setTemplateBusy(false);
    }
  };

  /** Set at the click, before React re-renders the button as loading: a second click sends nothing. */
  const sending = useRef(false);
  const start = async (confirmField?: string) => {
    if (!file || sending.current) return;
    sending.current = true;
    try {
      await send(file, confirmField);
    } finally {
      sending.current = false;
    }
  };

  const send = async (file: File, confirmField?: string) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(props.extraFields ?? {})) form.append(k, v);
    if (confirmField) form.append(confirmField, 'true');
    form.append('file', file, file.name);
    setPhase({ kind: 'uploading', percent: 0 });
    try {
      const result = await upload(props.importCall, form, (fraction) => {
        if (fraction >= 1) setPhase({ kind: 'processing' });
        else setPhase({ kind: 'uploading', percent: Math.round(fraction * 100) });
      });
      const imported = (result as { imported?: number } | null)?.imported ?? 0;
      setPhase({ kind: 'done', imported });
      props.onImported(result);
    } catch (error) {
      const problems = problemsOf(error);
      if (problems) {
        setPhase({
          kind: 'refused',
          message: (error as ApiError).message,
          problems,
          confirmField: confirmFieldOf(error),
        });
      } else {
        setPhase({ kind: 'idle' });
        onError(error);
      }
    }
  };

  const close = () => {
    if (busy) return;
    setPhase({ kind: 'idle' });
    setFile(null);
    props.onClose();
  };

  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={close}
      mask={{ closable: !busy }}
      closable={!busy}
      width={720}
      footer={[
        <Button key="close" onClick={close} disabled={busy}>
          {t('common.close')}
        </Button>,
        ...(phase.kind === 'refused' && phase.confirmField
          ? [
              <Button
                key="confirm"
                danger
                onClick={() => void start(phase.confirmField ?? undefined)}
                data-testid="import-confirm"
              >
                {t('transfer.importAnyway')}
              </Button>,
            ]
          : []),
        <RefusableButton
          key="start"
          type="primary"
          onClick={() => void start()}
          refusal={!file ? t('transfer.chooseFile') : phase.kind === 'done' ? t('transfer.alreadyImported') : undefined}
          loading={busy}
          data-testid="import-start"
        >
          {t('transfer.start')}
        </RefusableButton>,
      ]}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space>
          <Button onClick={() => void getTemplate()} loading={templateBusy} data-testid="import-template">
            {t('transfer.template')}
          </Button>
          <Typography.Text type="secondary">{t('transfer.limits')}</Typography.Text>
        </Space>
        <Upload.Dragger
          accept={extensions.join(',')}
          maxCount={1}
          disabled={busy}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          onRemove={() => {
            setFile(null);
            setPhase({ kind: 'idle' });
          }}
          beforeUpload={(chosen) => {
            const problem = localProblem(chosen);
            if (problem) void message.error(t(problem));
            else {
              setFile(chosen);
              setPhase({ kind: 'idle' });
            }
            return Upload.LIST_IGNORE;
          }}
        >
          <p data-testid="import-drop">{t('transfer.drop')}</p>
        </Upload.Dragger>
        {phase.kind === 'uploading' && (
          <Progress percent={phase.percent} status="active" format={(p) => t('transfer.uploading', { percent: p })} />
        )}
        {phase.kind === 'processing' && (
          <Progress percent={100} status="active" format={() => t('transfer.processing')} />
        )}
        {phase.kind === 'done' && (
          <Alert
            type="success"
            showIcon
            title={t('transfer.done', { count: phase.imported })}
            data-testid="import-done"
          />
        )}
        {phase.kind === 'refused' && (
          <>
            <Alert
              type={phase.confirmField ? 'warning' : 'error'}
              showIcon
              title={phase.message}
              data-testid="import-refused"
            />
            <Table<ImportProblem>
              size="small"
              rowKey={(p) => `${p.row}:${p.column}:${p.reason}`}
              dataSource={phase.problems}
              pagination={{ pageSize: 8, hideOnSinglePage: true }}
              columns={[
                { title: t('transfer.row'), dataIndex: 'row', width: 90 },
                { title: t('transfer.column'), dataIndex: 'column', width: 160 },
                { title: t('transfer.reason'), dataIndex: 'reason' },
              ]}
            />
          </>
        )}
      </Space>
    </Modal>
  );
};
