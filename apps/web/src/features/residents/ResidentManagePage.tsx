import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const ResidentManagePage = () => <PlaceholderPage name="PeopleManage" />;
export default ResidentManagePage;
