import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { ApiError } from './shared/api/client.ts';
import { createRouter } from './router.tsx';
import { consoleAntdConfig, CONSOLE_NOTIFICATIONS } from './shared/ui/antd-config.ts';
import { useReducedMotion } from './shared/ui/reduced-motion.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
const router = createRouter();

export const App = ({ locale }: { locale: Locale }) => {
  const reducedMotion = useReducedMotion();
  const config = useMemo(() => consoleAntdConfig({ motion: !reducedMotion }), [reducedMotion]);
  return (
    <ConfigProvider {...config} locale={locale}>
      <AntApp notification={CONSOLE_NOTIFICATIONS}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
};
