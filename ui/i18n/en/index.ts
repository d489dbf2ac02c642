import { type Dictionary, otherForm } from '@ui/i18n/plural'
import { common } from '@ui/i18n/en/common'
import { auth } from '@ui/i18n/en/auth'
import { tokens } from '@ui/i18n/en/tokens'
import { users } from '@ui/i18n/en/users'
import { channels } from '@ui/i18n/en/channels'
import { channelEditor } from '@ui/i18n/en/channel-editor'
import { channelKeys } from '@ui/i18n/en/channel-keys'
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
import { plans } from '@ui/i18n/en/plans'
import { docs } from '@ui/i18n/en/docs'

/**
 * Every English entry, keyed by the zh source string, as the dictionaries hold it (plural entries with
 * their forms), for tests and tools. The console never imports this: pages load their features'
 * dictionaries (`ui/i18n/dictionaries.ts`).
 */
export const englishEntries: Dictionary = { ...common, ...auth, ...tokens, ...users, ...channels, ...channelEditor, ...channelKeys, ...logs, ...settings, ...home,
	...playground, ...chat, ...dashboard, ...redemptions, ...topUp, ...pricing, ...settingsAdmin, ...tasks, ...plans, ...docs }

/** Every English text by its zh key, a plural entry as its `other` form: what tests look a label up in. */
export const en: Record<string, string> = Object.fromEntries(Object.entries(englishEntries).map(([key, text]) => [key, otherForm(text)]))
