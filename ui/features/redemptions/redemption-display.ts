/** How redemption codes read in the table and leave the page: state tags and the key file. */
import { REDEMPTION_STATUS } from '@shared/redemption-constants'
import type { BadgeVariant } from '@ui/components/ui/badge'

/** zh source strings and tag colours of the three states (docs/specification/tokens-and-money.md#redemption-codes). */
export const redemptionStatusTags: Record<number, { label: string; variant: BadgeVariant }> = {
	[REDEMPTION_STATUS.unused]: { label: '未使用', variant: 'green' },
	[REDEMPTION_STATUS.disabled]: { label: '已禁用', variant: 'red' },
	[REDEMPTION_STATUS.used]: { label: '已使用', variant: 'grey' },
}

export const unknownStatusTag = { label: '未知状态', variant: 'grey' } as const satisfies { label: string; variant: BadgeVariant }

/** One key per line, as the download and "copy selected" give them. */
export const keyLines = (keys: string[]) => `${keys.join('\n')}\n`

/** The download offered after creation (docs/specification/tokens-and-money.md#redemption-codes): `<name>.txt`. */
export const keyFileName = (name: string) => `${name}.txt`

export { downloadText } from '@ui/lib/download'
