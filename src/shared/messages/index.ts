/**
 * The catalogue of every message the server shows a person (issue 16): `/api` answers, their
 * validation errors and the log lines the console reads. Code refers to a message by its Chinese
 * source text (a `CatalogueText`, checked by the compiler), with values for its placeholders
 * (`withValues`); `renderMessage` words it in the reader's language at the edge (the `/api`
 * envelope, the log list). Relay error bodies for API clients are not here: they stay in each
 * provider's English shape.
 */
import { AFFINITY_MESSAGE_ENTRIES } from './affinity'
import { API_MESSAGE_ENTRIES } from './api'
import { CHANNEL_STATUS_REASON_ENTRIES } from './channel-status'
import { CHANNEL_MESSAGE_ENTRIES, CHANNEL_TOOL_MESSAGE_ENTRIES } from './channels'
import type { Bilingual, Language, LocalizedMessage, MessageEntries, MessageValue, Placeholders } from './define'
import { LOG_LINE_ENTRIES, LOG_MESSAGE_ENTRIES } from './logs'
import { ADMIN_ACTION_ENTRIES } from './admin-actions'
import { OAUTH_MESSAGE_ENTRIES } from './oauth'
import { chooseForm, type CountedText } from '../plural'
import { OPTION_MESSAGE_ENTRIES } from './options'
import { PLAN_MESSAGE_ENTRIES } from './plans'
import { RATE_LIMIT_MESSAGE_ENTRIES } from './rate-limits'
import { QUOTA_DATA_MESSAGE_ENTRIES } from './quota'
import { QUOTA_LIMIT_MESSAGE_ENTRIES } from '../quota-limit'
import { REDEMPTION_MESSAGE_ENTRIES } from './redemptions'
import { RELAY_MESSAGE_ENTRIES } from './relay'
import { TOKEN_MESSAGE_ENTRIES } from './tokens'
import { TOP_UP_MESSAGE_ENTRIES } from './top-ups'
import { USER_MESSAGE_ENTRIES } from './users'
import { MAILER_MESSAGE_ENTRIES, TURNSTILE_MESSAGE_ENTRIES, VERIFICATION_MESSAGE_ENTRIES } from './verification'

export * from './define'

/** Every group; a new group is added here (the catalogue test reads this list). */
export const MESSAGE_GROUPS = {
	AFFINITY_MESSAGE_ENTRIES, API_MESSAGE_ENTRIES, CHANNEL_MESSAGE_ENTRIES, CHANNEL_TOOL_MESSAGE_ENTRIES, CHANNEL_STATUS_REASON_ENTRIES, LOG_MESSAGE_ENTRIES, LOG_LINE_ENTRIES,
	ADMIN_ACTION_ENTRIES, OAUTH_MESSAGE_ENTRIES, OPTION_MESSAGE_ENTRIES, PLAN_MESSAGE_ENTRIES, RATE_LIMIT_MESSAGE_ENTRIES, QUOTA_DATA_MESSAGE_ENTRIES, QUOTA_LIMIT_MESSAGE_ENTRIES,
	REDEMPTION_MESSAGE_ENTRIES, TOKEN_MESSAGE_ENTRIES, TOP_UP_MESSAGE_ENTRIES, USER_MESSAGE_ENTRIES, MAILER_MESSAGE_ENTRIES,
	TURNSTILE_MESSAGE_ENTRIES, VERIFICATION_MESSAGE_ENTRIES, RELAY_MESSAGE_ENTRIES,
} as const

type Groups = (typeof MESSAGE_GROUPS)[keyof typeof MESSAGE_GROUPS]
type TextsOf<Entries> = Entries extends MessageEntries ? Entries[keyof Entries][0] : never

/** Every Chinese source text of the catalogue. */
export type CatalogueText = TextsOf<Groups>
/** A text without placeholders: it can be shown as it is. */
export type PlainText = { [Text in CatalogueText]: [Placeholders<Text>] extends [never] ? Text : never }[CatalogueText]
/** A text with placeholders: it needs `withValues`. */
export type TemplateText = Exclude<CatalogueText, PlainText>
/** What code hands to the edge: a plain catalogue text, or a template with its values. */
export type ServerMessage = PlainText | LocalizedMessage

/** Chinese source text → English (with its plural forms, if any). */
const ENGLISH = new Map<string, CountedText>()
for (const group of Object.values(MESSAGE_GROUPS) as MessageEntries[]) {
	for (const [zh, en] of Object.values(group)) ENGLISH.set(zh, en)
}

export const isCatalogueText = (text: string): text is CatalogueText => ENGLISH.has(text)

/**
 * A template with its values. A value that is itself a catalogue text must be `nested(…)` (else it
 * would be shown as it is, in Chinese): the compiler refuses a bare one.
 */
export function withValues<Text extends TemplateText, Values extends { readonly [Name in Placeholders<Text>]: MessageValue }>(
	text: Text,
	values: Values & { readonly [Name in keyof Values]: Values[Name] extends CatalogueText ? never : Values[Name] },
): LocalizedMessage {
	return { text, values }
}

/** A message as a value of another: a plain text is wrapped so that it is worded too, not shown as it is. */
export const nested = (message: ServerMessage): LocalizedMessage => (typeof message === 'string' ? { text: message, values: {} } : message)

export const isLocalizedMessage = (value: unknown): value is LocalizedMessage =>
	typeof value === 'object' && value !== null && typeof (value as LocalizedMessage).text === 'string'
	&& typeof (value as LocalizedMessage).values === 'object' && (value as LocalizedMessage).values !== null

const isBilingual = (value: unknown): value is Bilingual =>
	typeof value === 'object' && value !== null && typeof (value as Bilingual).zh === 'string' && typeof (value as Bilingual).en === 'string'

function renderValue(language: Language, value: MessageValue): string {
	if (typeof value === 'string' || typeof value === 'number') return String(value)
	if (isBilingual(value)) return value[language]
	return renderMessage(language, value)
}

/**
 * The message in the language: the catalogue's wording with its placeholders filled, in the plural
 * form its count asks for. A text the catalogue does not know (an old stored line, say) is shown as
 * it is.
 */
export function renderMessage(language: Language, message: ServerMessage | LocalizedMessage | string): string {
	const { text, values } = typeof message === 'string' ? { text: message, values: {} as LocalizedMessage['values'] } : message
	const template = language === 'en' ? chooseForm('en', ENGLISH.get(text) ?? text, values) : text
	return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? renderValue(language, values[name]!) : whole))
}

/** The English of a message; for logs and errors meant for operators, and for tests. */
export const inEnglish = (message: ServerMessage | LocalizedMessage | string) => renderMessage('en', message)

/** Both wordings of a message, for a value computed where the language is not known yet. */
export const bilingual = (message: ServerMessage | LocalizedMessage): Bilingual => ({ zh: renderMessage('zh', message), en: renderMessage('en', message) })
