import { Dropdown, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { tagsStore, useVisitedViews } from './tags-store.ts';

export const TagsView = () => {
  const views = useVisitedViews();
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <div className="tags-view" data-testid="tags-view">
      {views.map((view) => {
        const active = view.path === location.pathname;
        const close = () => {
          const next = tagsStore.close(view.path);
          if (next && active) void navigate(next);
        };
        return (
          <Dropdown
            key={view.path}
            trigger={['contextMenu']}
            menu={{
              items: [
                { key: 'refresh', label: t('tags.refresh') },
                { key: 'close', label: t('tags.close'), disabled: view.affix },
                { key: 'closeOthers', label: t('tags.closeOthers') },
                { key: 'closeAll', label: t('tags.closeAll') },
              ],
              onClick: ({ key }) => {
                if (key === 'refresh') void navigate(`/redirect${view.path}`, { replace: true });
                if (key === 'close') close();
                if (key === 'closeOthers') {
                  tagsStore.closeOthers(view.path);
                  if (!active) void navigate(view.path);
                }
                if (key === 'closeAll') void navigate(tagsStore.closeAll());
              },
            }}
          >
            <Tag
              data-testid={`tag-${view.path}`}
              color={active ? 'blue' : undefined}
              closable={!view.affix}
              onClose={(e) => {
                e.preventDefault();
                close();
              }}
              onClick={() => void navigate(view.path)}
              style={{ cursor: 'pointer', userSelect: 'none' }}
            >
              {t(`menu.${view.name}`)}
            </Tag>
          </Dropdown>
        );
      })}
    </div>
  );
};
