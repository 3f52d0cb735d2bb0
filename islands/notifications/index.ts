import { defineIsland } from '../shared/define-island.ts'
import { Notifications } from './notifications.tsx'
import { parseNotificationsProps } from './props.ts'

export const notificationsIsland = defineIsland(Notifications, parseNotificationsProps)
