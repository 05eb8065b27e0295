import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { RouterProvider } from 'react-router';
import { ApiError } from './shared/api/client.ts';
import { createRouter } from './router.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof ApiError) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});
const router = createRouter();

/** Ant Design's own font stack has no CJK face; headless browsers have none either, so the bundled Noto fonts come first. */
const FONT_FAMILY =
  "-apple-system, 'Segoe UI', Roboto, 'Noto Sans SC', 'Noto Sans JP', 'Noto Sans KR', 'Helvetica Neue', Arial, sans-serif";

export const App = ({ locale }: { locale: Locale }) => (
  <ConfigProvider
    locale={locale}
    theme={{
      token: { colorPrimary: '#1f6feb', fontFamily: FONT_FAMILY },
      components: { Layout: { siderBg: '#001529' } },
    }}
  >
    <AntApp>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </AntApp>
  </ConfigProvider>
);
