import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const CaregiverEditPage = () => <PlaceholderPage name="addAndEditNurse" />;
export default CaregiverEditPage;
