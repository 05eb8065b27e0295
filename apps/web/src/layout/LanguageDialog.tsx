import { Modal, Radio, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { dialogLanguages, storedLanguage, switchLanguage } from '../shared/i18n/index.ts';
import { isAbroad } from '../shared/storage.ts';

export const LanguageDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const current = storedLanguage();
  return (
    <Modal open={open} title={t('language.title')} onCancel={onClose} footer={null} destroyOnHidden>
      <Radio.Group value={current} onChange={(e) => switchLanguage(e.target.value)} data-testid="language-dialog">
        <Space orientation="vertical">
          {dialogLanguages(isAbroad()).map((lang) => (
            <Radio key={lang} value={lang} data-testid={`language-${lang}`}>
              {t(`language.${lang}`)}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Modal>
  );
};
