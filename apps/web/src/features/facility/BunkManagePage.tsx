import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { CommunityTab } from './communities/CommunityTab.tsx';
import { FacilityTab } from './FacilityTab.tsx';
import { useFacilityAccess } from './useFacilityAccess.ts';
import { ScreenTitle } from '../../shared/ui/ScreenTitle.tsx';

/**
 * Community/address management (/BunkManage/index): the facility's areas, floors, rooms and beds
 * with their devices and residents, and the communities of community care providers.
 */
const BunkManagePage = () => {
  const { t } = useTranslation('facility');
  const { platform, chosenProviderId } = useFacilityAccess();
  return (
    // A change of provider in the sidebar starts the screen afresh (selection, filters, dialogs).
    <div key={chosenProviderId ?? 'none'}>
      <ScreenTitle route="BunkManage" />
      <Tabs
        items={[
          { key: 'places', label: t('page.placesTab'), children: <FacilityTab platform={platform} /> },
          { key: 'communities', label: t('page.communitiesTab'), children: <CommunityTab platform={platform} /> },
        ]}
      />
    </div>
  );
};

export default BunkManagePage;
