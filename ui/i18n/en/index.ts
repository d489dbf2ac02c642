import { common } from '@ui/i18n/en/common'
import { auth } from '@ui/i18n/en/auth'
import { tokens } from '@ui/i18n/en/tokens'
import { users } from '@ui/i18n/en/users'
import { channels } from '@ui/i18n/en/channels'
import { channelEditor } from '@ui/i18n/en/channel-editor'
import { logs } from '@ui/i18n/en/logs'
import { settings } from '@ui/i18n/en/settings'
import { home } from '@ui/i18n/en/home'
import { playground } from '@ui/i18n/en/playground'
import { chat } from '@ui/i18n/en/chat'
import { dashboard } from '@ui/i18n/en/dashboard'
import { redemptions } from '@ui/i18n/en/redemptions'
import { topUp } from '@ui/i18n/en/top-up'
import { pricing } from '@ui/i18n/en/pricing'
import { settingsAdmin } from '@ui/i18n/en/settings-admin'
import { tasks } from '@ui/i18n/en/tasks'

/** English texts keyed by the zh source string; a key missing here is shown in Chinese. One file per feature. */
export const en: Record<string, string> = { ...common, ...auth, ...tokens, ...users, ...channels, ...channelEditor, ...logs, ...settings, ...home,
	...playground, ...chat, ...dashboard, ...redemptions, ...topUp, ...pricing, ...settingsAdmin, ...tasks }
