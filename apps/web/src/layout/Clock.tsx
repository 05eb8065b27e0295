import { CONSTANTS } from '@vigil/contract/browser';
import { useEffect, useState } from 'react';
import { storedLanguage } from '../shared/i18n/index.ts';

export const Clock = () => {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), CONSTANTS.clockRefreshMs);
    return () => window.clearInterval(id);
  }, []);
  const lang = storedLanguage();
  return (
    <span className="navbar-clock" data-testid="clock">
      <span>{now.toLocaleTimeString(lang, { hour12: false })}</span> <span>{now.toLocaleDateString(lang)}</span>
    </span>
  );
};
