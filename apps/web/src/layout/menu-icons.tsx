import {
  AlertOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CloudServerOutlined,
  CloudUploadOutlined,
  ClusterOutlined,
  ControlOutlined,
  DashboardOutlined,
  DeploymentUnitOutlined,
  FileTextOutlined,
  HddOutlined,
  HistoryOutlined,
  IdcardOutlined,
  LockOutlined,
  MedicineBoxOutlined,
  MobileOutlined,
  MonitorOutlined,
  NotificationOutlined,
  PieChartOutlined,
  RocketOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import type { ComponentType, ReactNode } from 'react';
import type { MenuNode } from './menu-tree.ts';

/** By route name (packages/contract/src/console-routes.ts). */
export const ROUTE_ICONS: Readonly<Record<string, ComponentType>> = {
  statistics: BarChartOutlined,
  RealTime: DashboardOutlined,
  residentList: TeamOutlined,
  alarm: AlertOutlined,
  remindsetting: NotificationOutlined,
  SleepReport: FileTextOutlined,
  PeopleManage: IdcardOutlined,
  BunkManage: ApartmentOutlined,
  nurseManage: MedicineBoxOutlined,
  platSet: ControlOutlined,
  statisticsMult: PieChartOutlined,
  deviceManage: HddOutlined,
  ed719: MobileOutlined,
  safeDeviceManage: SafetyOutlined,
  hostDevice: ClusterOutlined,
  historyData: HistoryOutlined,
  hardSoftUpload: CloudUploadOutlined,
  accountmanager: UserSwitchOutlined,
  providermanager: ShopOutlined,
  appVersionDeployment: RocketOutlined,
  versionDeployment: DeploymentUnitOutlined,
};

/** By group label key (menu-tree.ts GROUPS). */
export const GROUP_ICONS: Readonly<Record<string, ComponentType>> = {
  'menu.group.monitor': MonitorOutlined,
  'menu.group.device': CloudServerOutlined,
  'menu.group.permission': LockOutlined,
  'menu.group.settings': SettingOutlined,
  'menu.group.release': RocketOutlined,
};

/** Every entry gets an icon: the collapsed sidebar shows nothing else. */
export const menuIcon = (node: Pick<MenuNode, 'key' | 'route'>): ReactNode => {
  const Icon = (node.route ? ROUTE_ICONS[node.route] : GROUP_ICONS[node.key]) ?? AppstoreOutlined;
  return <Icon />;
};
