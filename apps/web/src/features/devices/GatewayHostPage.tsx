import { PlaceholderPage } from '../placeholder/PlaceholderPage.tsx';

/** Being built (issue 4). */
const GatewayHostPage = () => <PlaceholderPage name="hostDevice" />;
export default GatewayHostPage;
