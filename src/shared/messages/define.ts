/**
 * How a group of server messages is declared (issue 16): each message once, as its Chinese source
 * text and its English, both naming the same `{placeholders}`. The Chinese text is the message's
 * identity, as in the console's dictionary: code passes it around (in errors, zod issues, answers)
 * and the catalogue renders it in the reader's language at the edge. Zod-free, importing only the
 * plural forms, so any layer (and the console) can use a group without pulling in the others.
 */

import type { CountedText } from '../plural'

/**
 * `[zh, en]`: the Chinese source text (the key) and its English, which has plural forms
 * (`plural('count', { one, other })`, `src/shared/plural.ts`) when it counts something.
 */
export type MessagePair = readonly [zh: string, en: CountedText]
export type MessageEntries = Readonly<Record<string, MessagePair>>

/** The Chinese texts of a group, by name: what code passes around. */
export type SourceTexts<Entries extends MessageEntries> = { readonly [Name in keyof Entries]: Entries[Name][0] }

export function sourceTexts<const Entries extends MessageEntries>(entries: Entries): SourceTexts<Entries> {
	return Object.fromEntries(Object.entries(entries).map(([name, [zh]]) => [name, zh])) as SourceTexts<Entries>
}

/** The `{name}` placeholders of a text, as a union of names. */
export type Placeholders<Text extends string> = Text extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never

export const languages = ['zh', 'en'] as const
export type Language = (typeof languages)[number]

/** A text already known in both languages (a validator's own wording, say). */
export type Bilingual = { readonly zh: string; readonly en: string }

/** A message with values for its placeholders; a value may itself be a message. */
export type LocalizedMessage = { readonly text: string; readonly values: Readonly<Record<string, MessageValue>> }
export type MessageValue = string | number | LocalizedMessage | Bilingual
