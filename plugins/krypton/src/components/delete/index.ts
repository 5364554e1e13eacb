export { DeleteSecretButton } from './DeleteSecretButton';
export type { DeleteSecretButtonProps } from './DeleteSecretButton';
export { DeletedNotice, PendingDeletionNotice } from './DeleteNotices';
export type { DeleteNoticeProps, DeletedSecretRef } from './DeleteNotices';
