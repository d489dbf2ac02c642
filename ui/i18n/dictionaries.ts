/**
 * The English dictionaries of the console's features. The shell's (`common`: layout, tables, errors)
 * comes with every page; a page names the features whose texts it shows (`ui/routes.tsx`) and its
 * lazy route loads those dictionaries with its module, so a first load carries only its own texts.
 * `test/ui/i18n.test.ts` walks each page's imports and checks that its dictionaries cover every text.
 */
import type { Dictionary } from '@ui/i18n/plural'

export const englishDictionaries = {
	auth: () => import('@ui/i18n/en/auth').then((module) => module.auth),
	channelEditor: () => import('@ui/i18n/en/channel-editor').then((module) => module.channelEditor),
	channelKeys: () => import('@ui/i18n/en/channel-keys').then((module) => module.channelKeys),
	channels: () => import('@ui/i18n/en/channels').then((module) => module.channels),
	chat: () => import('@ui/i18n/en/chat').then((module) => module.chat),
	dashboard: () => import('@ui/i18n/en/dashboard').then((module) => module.dashboard),
	docs: () => import('@ui/i18n/en/docs').then((module) => module.docs),
	home: () => import('@ui/i18n/en/home').then((module) => module.home),
	logs: () => import('@ui/i18n/en/logs').then((module) => module.logs),
	playground: () => import('@ui/i18n/en/playground').then((module) => module.playground),
	plans: () => import('@ui/i18n/en/plans').then((module) => module.plans),
	pricing: () => import('@ui/i18n/en/pricing').then((module) => module.pricing),
	redemptions: () => import('@ui/i18n/en/redemptions').then((module) => module.redemptions),
	settings: () => import('@ui/i18n/en/settings').then((module) => module.settings),
	settingsAdmin: () => import('@ui/i18n/en/settings-admin').then((module) => module.settingsAdmin),
	tasks: () => import('@ui/i18n/en/tasks').then((module) => module.tasks),
	tokens: () => import('@ui/i18n/en/tokens').then((module) => module.tokens),
	topUp: () => import('@ui/i18n/en/top-up').then((module) => module.topUp),
	users: () => import('@ui/i18n/en/users').then((module) => module.users),
} satisfies Record<string, () => Promise<Dictionary>>

export type DictionaryName = keyof typeof englishDictionaries
