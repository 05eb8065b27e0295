import type { MessageKey } from './messages/index.ts';

/**
 * The request field a refusal is always about, so every answer with that message names it and a
 * form shows the message on the field. A failure raised on another field says so itself (e.g.
 * `provider.exists` for a login account that is taken names `userName`).
 */
export const MESSAGE_FIELDS: Partial<Record<MessageKey, string>> = {
  'provider.exists': 'name',
  'provider.numberExists': 'number',
  'account.exists': 'userName',
  'password.rules': 'passWord',
  'password.security': 'passWord',
  'password.old_wrong': 'oldPassWord',
  'password.same': 'newPassWord',
  'area.exists': 'name',
  'floor.exists': 'name',
  'community.exists': 'name',
  'caregiver.phoneExists': 'phone',
  // The phone would be the login and is taken: the way out is choosing an account name.
  'caregiver.accountExists': 'userName',
  'caregiver.residentLimit': 'residentIds',
  'caregiver.residentFull': 'residentIds',
  'caregiver.residentProvider': 'residentIds',
  'device.idFormat': 'deviceId',
  'device.notRegistered': 'deviceId',
  'device.alreadyAdded': 'deviceId',
  'device.addedByOther': 'deviceId',
  'device.notInStock': 'deviceId',
  'deviceStock.exists': 'deviceId',
  'device.typeMismatch': 'deviceType',
  'device.typeUnknown': 'deviceType',
  'device.notSubDeviceType': 'deviceType',
  'deviceStock.modelMismatch': 'deviceType',
};
