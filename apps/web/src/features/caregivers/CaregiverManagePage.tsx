import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const CaregiverManagePage = () => <PlaceholderPage name="nurseManage" />;
export default CaregiverManagePage;
