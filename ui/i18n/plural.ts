/**
 * The console's dictionary entries: a string, or a `PluralText` whose form follows a count. The
 * plural choice itself lives in `src/shared/plural.ts`, shared with the server's message catalogue,
 * so both word a count the same way.
 */
import type { CountedText } from '@shared/plural'

export { chooseForm, formsOf, otherForm, plural, type PluralText } from '@shared/plural'

/** What a dictionary holds for a zh key. */
export type DictionaryText = CountedText

export type Dictionary = Record<string, DictionaryText>
