import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const SleepDevicePage = () => <PlaceholderPage name="deviceManage" />;
export default SleepDevicePage;
