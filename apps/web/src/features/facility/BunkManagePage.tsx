import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const BunkManagePage = () => <PlaceholderPage name="BunkManage" />;
export default BunkManagePage;
