import { Dropdown, Tag } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { tagsStore, useVisitedViews } from './tags-store.ts';
import { refusedLabel } from '../shared/ui/Refused.tsx';

export const TagsView = () => {
  const views = useVisitedViews();
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const bar = useRef<HTMLDivElement>(null);
  // The bar scrolls sideways on narrow screens: keep the current page's tag in sight.
  useEffect(() => {
    bar.current?.querySelector('[data-active="true"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [location.pathname, views]);
  return (
    <div className="tags-view" data-testid="tags-view" ref={bar}>
      {views.map((view) => {
        const active = view.path === location.pathname;
        const title = t(`menu.${view.name}`);
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
                {
                  key: 'close',
                  label: view.affix ? refusedLabel(t('tags.close'), t('tags.affixed')) : t('tags.close'),
                  disabled: view.affix,
                },
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
              data-active={active}
              closable={view.affix ? false : { 'aria-label': t('tags.closeTag', { name: title }) }}
              onClose={(e) => {
                e.preventDefault();
                close();
              }}
              onClick={() => void navigate(view.path)}
              style={{ cursor: 'pointer', userSelect: 'none' }}
            >
              {title}
            </Tag>
          </Dropdown>
        );
      })}
    </div>
  );
};
