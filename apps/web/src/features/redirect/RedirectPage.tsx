import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** Tags' Refresh goes through /redirect/<path>: leaving and re-entering remounts the page. */
export const RedirectPage = () => {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(location.pathname.replace(/^\/redirect/, '') + location.search, { replace: true });
  }, [location, navigate]);
  return null;
};
export default RedirectPage;
