import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const ResidentEditPage = () => <PlaceholderPage name="addAndEditUser" />;
export default ResidentEditPage;
