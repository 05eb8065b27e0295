import { Card, Typography } from 'antd';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useCaregiverTexts } from './useCaregiverTexts.ts';

/** The caregiver app, served by this server under /m/ (as the shell's download guide links it). */
const appUrl = () => `${window.location.origin}/m/`;

const AppQr = ({ label }: { label: string }) => {
  const [src, setSrc] = useState('');
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(appUrl(), { width: 160, margin: 1 }).then(
      (url) => live && setSrc(url),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return src ? <img src={src} alt={label} width={160} height={160} data-testid="app-qr" /> : null;
};

/**
 * How the caregiver gets the app. Domestic: one QR code to scan (the spec's domestic download
 * guide). Overseas: the app stores' builds, which the top bar's download guide offers per platform.
 */
export const AppHint = () => {
  const { v, variant } = useCaregiverTexts();
  return (
    <Card size="small" title={v('app.title')} data-testid={`app-hint-${variant}`}>
      {variant === 'domestic' && (
        <div style={{ textAlign: 'center', marginBottom: 8 }}>
          <AppQr label={v('app.title')} />
        </div>
      )}
      <Typography.Paragraph style={{ marginBottom: 0 }}>{v('app.body')}</Typography.Paragraph>
    </Card>
  );
};
