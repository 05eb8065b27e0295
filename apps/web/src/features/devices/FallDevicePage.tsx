import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const FallDevicePage = () => <PlaceholderPage name="ed719" />;
export default FallDevicePage;
