import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const SecurityDevicePage = () => <PlaceholderPage name="safeDeviceManage" />;
export default SecurityDevicePage;
