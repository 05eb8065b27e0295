import { GatewayHostList } from './GatewayHostList.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** Gateway hosts and the sub-devices paired with them. */
const GatewayHostPage = () => {
  return (
    <div>
      <ScreenTitle route="hostDevice" />
      <GatewayHostList />
    </div>
  );
};
export default GatewayHostPage;
