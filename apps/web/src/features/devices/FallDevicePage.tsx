import { DeviceList } from './DeviceList.tsx';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/** Fall radars (ED719). */
const FallDevicePage = () => {
  return (
    <div>
      <ScreenTitle route="ed719" />
      <DeviceList group="fall" />
    </div>
  );
};
export default FallDevicePage;
