import { CheckOutlined } from '@ant-design/icons';
import { Modal, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { dialogLanguages, normaliseLanguage, switchLanguage, type UiLanguage } from '../shared/i18n/index.ts';
import { useAbroad } from '../shared/session/access.ts';

/**
 * The navbar's language dialog (issue 8, point 9): the language the console shows is always
 * listed, checked and marked "(current)", so whoever chose it on the login page can keep it.
 */
export const LanguageDialog = ({
  open,
  onClose,
  onSwitch = switchLanguage,
}: {
  open: boolean;
  onClose: () => void;
  /** Stores the language and reloads the page; a test passes its own (jsdom cannot reload). */
  onSwitch?: (lang: UiLanguage) => void;
}) => {
  const { t, i18n } = useTranslation();
  // The language the interface is drawn in (initialised from the stored one).
  const current = normaliseLanguage(i18n.language);
  const abroad = useAbroad();
  return (
    <Modal open={open} title={t('language.title')} onCancel={onClose} footer={null} destroyOnHidden>
      <Radio.Group value={current} onChange={(e) => onSwitch(e.target.value)} data-testid="language-dialog">
        <Space orientation="vertical">
          {dialogLanguages(abroad, current).map((lang) => (
            <Radio
              key={lang}
              value={lang}
              data-testid={`language-${lang}`}
              aria-current={lang === current ? 'true' : undefined}
            >
              <span lang={lang}>{t(`language.${lang}`)}</span>
              {lang === current && (
                <Typography.Text type="success" className="language-current" data-testid="language-current">
                  {' '}
                  <CheckOutlined aria-hidden /> {t('language.current')}
                </Typography.Text>
              )}
            </Radio>
          ))}
        </Space>
      </Radio.Group>
    </Modal>
  );
};
