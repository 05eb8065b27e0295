import { Alert, App, Button, Modal, Space, Table, Typography } from 'antd';
import { useCaregiverTexts } from './useCaregiverTexts.ts';

export interface ImportedAccount {
  name: string;
  userName: string;
  initialPassword: string;
}

/** Tab-separated with a header row: pastes into a spreadsheet as three columns. */
export const accountsAsText = (accounts: readonly ImportedAccount[], header: readonly string[]): string =>
  [header, ...accounts.map((a) => [a.name, a.userName, a.initialPassword])].map((cells) => cells.join('\t')).join('\n');

/**
 * The app accounts an import created, with their generated passwords: shown once, right after the
 * import, since the server keeps only hashes. Closing is a deliberate click, not a stray one outside.
 */
export const ImportedAccountsDialog = (props: { accounts: readonly ImportedAccount[]; onClose: () => void }) => {
  const { t, v } = useCaregiverTexts();
  const { message } = App.useApp();
  const header = [t('imported.name'), t('imported.userName'), t('imported.password')];

  const copyAll = () => {
    const text = accountsAsText(props.accounts, header);
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) {
      void message.error(t('imported.copyFailed'));
      return;
    }
    clipboard.writeText(text).then(
      () => void message.success(t('imported.copied')),
      () => void message.error(t('imported.copyFailed')),
    );
  };

  return (
    <Modal
      open
      width={760}
      title={v('imported.title', { count: props.accounts.length })}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={props.onClose}
      footer={[
        <Button key="copy" onClick={copyAll} data-testid="imported-copy-all">
          {t('imported.copyAll')}
        </Button>,
        <Button key="close" type="primary" onClick={props.onClose} data-testid="imported-close">
          {t('imported.close')}
        </Button>,
      ]}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title={t('imported.warning')} data-testid="imported-warning" />
        <Table<ImportedAccount>
          size="small"
          data-testid="imported-accounts"
          rowKey="userName"
          dataSource={[...props.accounts]}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          columns={[
            { title: header[0], dataIndex: 'name' },
            {
              title: header[1],
              dataIndex: 'userName',
              render: (userName: string) => <Typography.Text copyable>{userName}</Typography.Text>,
            },
            {
              title: header[2],
              dataIndex: 'initialPassword',
              render: (password: string) => (
                <Typography.Text copyable code>
                  {password}
                </Typography.Text>
              ),
            },
          ]}
        />
      </Space>
    </Modal>
  );
};
